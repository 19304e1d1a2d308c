// Every sentence the phone page says to the person holding the phone, in one table.
//
// The server never sends a sentence for the page to show: it sends a problem *kind* with its facts
// (vision/web/notices.py), and the page picks its words here, in the player's terms (what to tap,
// what to photograph again), never a command-line flag or an internal field name. The English here is
// also the message id of the session's gettext catalog (scoring/session/locale/it/…/session.po, which
// a test keeps complete): app.js fetches GET /api/messages?lang=… and hands it to use(), and t() then
// gives each sentence in that language ({name} is filled in by t()).
"use strict";

(() => {
  const en = {
    // problems with the tiles read (the hand card)
    "notice.no_tiles": "No tiles were found in this photo. Photograph the hand again, from above and a little closer.",
    "notice.bad_set": "A declared set is not a chow, pung or kong. Tap its tiles to correct them, or photograph the set again.",
    "notice.no_concealed": "No tiles in hand were found, only declared sets. Photograph the whole hand again.",
    "notice.no_winning_tile": "No winning tile was set apart. Tap the tile that won, in the hand, and choose “This one won”.",
    "notice.gap": "A tile may be missing where the row has a gap (marked). Tap “+ Add a tile the photo missed”, or photograph the hand again.",
    "notice.hand_size": "The hand has too many or too few tiles (the likely ones are marked). Tap a marked tile to correct or remove it, or add the missing one.",
    "notice.fifth_copy": "More than four tiles were read as the same tile. Tap the marked ones and correct them.",
    "notice.rejected_near": "Something beside the hand may be a tile that was not read. If a tile is missing, tap “+ Add a tile the photo missed”.",
    "notice.faint": "Some boxes are faint and may not be tiles (marked). Tap one and choose “Not a tile” if it is not.",
    "notice.mended": "The hand was completed by a guess (marked tiles). Check them and tap any that is wrong.",
    // problems with the score (the score card)
    "notice.winning_guessed": "No winning tile was set apart, so the score takes {tile}, the best of {count} tiles that could have won. Tap the tile that won.",
    "notice.no_candidate_wins": "Whichever tile won, this hand is not a win under these rules: {detail}",
    "notice.incomplete": "The hand shows {have} tiles, but a finished hand has {need} (a kong counts as three). Tap “+ Add a tile the photo missed”, remove a tile that is not one, or photograph the hand again.",
    "notice.too_many": "The hand shows {have} tiles, but a finished hand has {need} (a kong counts as three). Tap a tile that is not part of the hand and choose “Not a tile”, or photograph the hand again.",
    "notice.not_winning_shape": "These tiles do not make a winning hand. Tap any tile that was misread to correct it, or photograph the hand again.",
    "notice.impossible_hand": "These tiles cannot all be in one hand: {detail}. Tap the wrong tile to correct it.",
    "notice.not_a_win": "Not a win under these rules: {detail}. Check how it was won (beside the score) and the tile that won.",
    "notice.unknown": "Something in this hand needs checking: tap any tile that was misread.",

    // the score card
    "score.title": "Score · {rules}",
    "score.none": "No score yet",
    "score.total": "Total",
    "score.payments": "Payments",
    "score.to_winner": "→ {points} to {seat}",
    "score.winner_seat": "{seat} (winner)",
    "score.fu": "{fu} fu",
    "toggle.win_by": "Won by",
    "toggle.discard": "Discard",
    "toggle.self_draw": "Self-draw",
    "toggle.seat": "Seat",
    "toggle.riichi": "Riichi",
  "wind.E": "East",
  "wind.S": "South",
  "wind.W": "West",
  "wind.N": "North",
    "candidates.title": "Which tile won? Tap it",
    "candidates.title_chosen": "The tile that won",
    "candidates.no_win": "no win",
    "candidates.chosen": "won",
    "needs.kong_replacement": "if drawn after a kong",
    "needs.robbing_kong": "if robbed from a kong",

    // the hand card
    "hand.no_tiles": "No tiles were found in this photo.",
    "hand.win": "won on {tile}",
    "hand.win_guess": "won on {tile}?",
    "hand.bonus": "bonus {tiles}",
    "tag.winning": "win",
    "tag.meld": "set",
    "tag.bonus": "bonus",
    "tag.unused": "left out",
    "photo.count": "{n} tiles",
    "photo.to_check": "{n} to check",
    "photo.set": "set “{name}”",
    "photo.whole": "Whole photo",
    "photo.zoom": "Zoom to the tiles",
    "tile.read_confidence": "read with {pct}% confidence",
    "tile.left_out": "left out of the hand ({why})",
    "tile.box_label": "tile {code}, tap to correct",

    // the page's own labels (index.html: elements with data-msg)
  "page.title": "Mahjong scorer",
  "mode.hand": "One hand",
  "mode.table": "Table",
  "settings.rules": "Rules",
  "settings.seat_wind": "Seat wind",
  "settings.round_wind": "Round wind",
  "settings.win_by": "Won by",
  "settings.default": "{value} (default)",
  "settings.example": "e.g. 3m 7z",
  "toast.undo": "Undo",

  // the table mode's own labels (index.html; table.js words the rest)
  "table.setup": "Set up the table",
  "table.tournament": "Tournament",
  "table.session": "Session",
  "table.players": "The four players, by the seat each takes at the first hand (N° optional):",
  "table.start": "Start the table",
  "table.add": "Add to the sheet",
  "table.winner": "Winner",
  "table.discarder": "Discarder",
  "table.after_riichi": "after riichi",
  "table.riichi": "Riichi declared",
  "table.draw": "Draw",
  "table.player": "Player",
  "table.infraction": "Infraction",
  "table.minutes": "Minutes late",
  "table.points": "Points",
  "table.note": "Note",
  "table.the_hand": "The hand",
  "table.tiles": "Tiles",
  "table.add_photo": "Add this hand to the sheet",
  "table.marked": "Tiles still marked “?” and the notes above make the sheet ask you to confirm the hand before it counts.",
  "table.sheet": "The sheet",
  "table.printable": "Printable sheet",
  "table.kept": "The session is kept in this browser until you start a new table.",
  "table.new": "New table",
    "settings.title": "What the photo cannot show",
    "settings.situation": "Situation",
    "settings.options": "Rule options",
    "settings.done": "Done",
    "take.hint": "Photograph the finished hand from the winner's side: the tiles in hand in a row, declared sets beside them. If the tile that won is not set apart on the right, the page lists every tile that could have won: tap the one that did.",
    "hand.title": "Hand",
    "hand.tap": "tap a tile to correct it",
    "hand.add": "+ Add a tile the photo missed",
    "palette.won": "This one won",
    "palette.remove": "Not a tile",
    "palette.cancel": "Cancel",

    // the palette
    "palette.which": "Which tile is this?",
    "palette.missing": "Which tile is missing?",
    "palette.joins": "It joins the tiles in hand.",
    "palette.read_as": "Read as {code}{conf}",
    "palette.corrected_to": "Corrected to {code}",
    "palette.confidence": " with {pct}% confidence",
    "palette.or": " (or {alts})",

    // taking the photo, talking to the server
    "take.first": "Take or choose a photo",
    "take.again": "Take another photo",
    "upload.too_large": "This photo is too large ({mb} MB; the limit is 25 MB). Take it again at a lower resolution.",
    "upload.not_image": "“{name}” is not an image. Choose a photo of the hand (JPEG or PNG).",
    "upload.progress": "Uploading… {pct}%",
    "upload.start": "Uploading…",
    "upload.reading": "Reading the tiles…",
    "error.413": "This photo is too large for the server. Take it again at a lower resolution.",
    "error.415": "This file is not an image the page can read. Photograph the hand again (JPEG or PNG).",
    "error.read": "This photo could not be read. Photograph the hand again.",
    "error.server": "The server had a problem with this photo. Try again, or photograph the hand again.",
    "error.unreachable": "Could not reach the server. Is it still running?",
    "error.timeout": "The server took too long to read this photo. Try again.",
    "error.rescore": "Could not score the hand just now. Check the connection and tap again.",
    "error.meta": "Could not load the rule systems from the server. Reload the page.",

    // the summary chip
    "summary.discard": "discard",
    "summary.self_draw": "self-draw",
    "summary.flags": "{n} flag(s)",
  };

  // the catalog of the page's language: English sentence → translated (empty: English)
  let catalog = {};
  function use(messages) {
    catalog = messages || {};
  }

  // t("notice.incomplete", {have: 13, need: 14}): the sentence in the page's language, its facts filled in
  function t(key, params) {
    const english = en[key] ?? key;
    const text = catalog[english] || english;
    return text.replace(/\{(\w+)\}/g, (_, name) => (params && params[name] !== undefined ? String(params[name]) : ""));
  }

  window.mahjongMessages = { en, t, use };
})();
