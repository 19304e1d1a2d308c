// Taught tile sets on the phone page: pick the set photos are read with, create one, teach it from a
// photo of tiles in rows (the pairing is shown before anything is saved), see and prune what it was
// taught, and teach it every tile corrected on a photo read with it (with an Undo).
// The server keeps the sets (GET/POST /api/sets, /api/teach…); this page keeps only the choice.
// Every sentence is the page's one messages table's (messages.js, "sets.*"), in the page's language:
// the server sends facts (codes, counts, how a tile was found) and this page words them, again on
// "mahjong:lang".
"use strict";

(() => {
  const CHOICE = "mahjong-scorer.set.v1";
  const NEW = "__new__"; // the picker's "New set…" (a set name starts with a letter or digit)
  const MAX_UPLOAD = 25 * 1024 * 1024;

  let P, $, el;
  const msg = (key, params) => window.mahjongMessages.t(key, params);
  const sets = {
    list: [],          // GET /api/sets: [{name, tiles, codes, default}]
    current: "",       // the picker's set ("": none)
    view: null,        // GET /api/sets/{name} of the set shown in the panel
    teachFile: null,   // the teaching photo chosen
    preview: null,     // the id of the pairing shown, to save
    pairing: null,     // POST /api/teach's answer shown (worded again when the language changes)
    mismatch: null,    // the lines of a pairing that failed, shown
    learned: new Map(), // "readId:tileId" → {set, id}: the taught tile a correction made
  };

  const enc = encodeURIComponent;

  async function api(method, url, body) {
    const init = { method, headers: {} };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let r, data;
    try {
      r = await fetch(url, init);
      data = await r.json();
    } catch (e) {
      throw Object.assign(new Error(msg("error.unreachable")), { data: {} });
    }
    if (!r.ok || data.error) {
      throw Object.assign(new Error(data.error || msg("sets.server_status", { status: r.status })), { data, status: r.status });
    }
    return data;
  }

  // a refusal of the server in the page's words, by its status and what was asked (the server's own
  // sentence, in English, only where the page has none: a code it could not read, say)
  function said(e, asked) {
    const status = e.status;
    if (status === 413) return msg("error.413");
    if (status === 415) return msg("error.415");
    if (status === 503) return msg("sets.no_reader");
    if (asked === "create" && status === 409) return msg("sets.exists", { name: e.setName });
    if (asked === "create" && status === 400) return msg("sets.bad_name");
    if (asked === "save" && status === 410) return msg("sets.pair_again");
    if (asked === "undo" && status === 410) return msg("sets.undo_gone");
    if (asked === "pair" && status === 400) return msg("sets.bad_codes", { error: e.message });
    if (status === 404) return msg("sets.gone");
    return e.message;
  }

  function message(id, text) {
    const m = $(id);
    m.textContent = text || "";
    m.hidden = !text;
  }

  // ---------------------------------------------------------------------------------------------
  // the toast: what a correction or a removal did, with its Undo
  // ---------------------------------------------------------------------------------------------
  let toastTimer = 0;
  let toastUndo = null;
  function toast(text, undo) {
    clearTimeout(toastTimer);
    $("toast-text").textContent = text;
    toastUndo = undo || null;
    $("toast-undo").hidden = !undo;
    $("toast").hidden = false;
    toastTimer = setTimeout(() => { $("toast").hidden = true; toastUndo = null; }, 10000);
  }
  async function undoToast() {
    const undo = toastUndo;
    $("toast").hidden = true;
    toastUndo = null;
    if (!undo) return;
    try {
      toast(await undo());
    } catch (e) {
      toast(msg("sets.undo_failed", { error: said(e, "undo") }));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // the picker
  // ---------------------------------------------------------------------------------------------
  function remembered() {
    try { return localStorage.getItem(CHOICE); } catch (e) { return null; }
  }
  function remember(name) {
    try { localStorage.setItem(CHOICE, name); } catch (e) { /* private mode: not remembered */ }
  }

  async function loadSets() {
    const data = await api("GET", "/api/sets");
    sets.list = data.sets || [];
    const names = sets.list.filter((s) => !s.error).map((s) => s.name);
    const wanted = sets.current || remembered();
    if (wanted !== null && (wanted === "" || names.includes(wanted))) sets.current = wanted;
    else sets.current = data.default && names.includes(data.default) ? data.default : "";
    fillPicker();
  }

  function fillPicker() {
    const picker = $("set-picker");
    const none = el("option", "", msg("sets.none"));
    none.value = "";
    const items = sets.list.map((s) => {
      const label = s.error ? msg("sets.unreadable", { name: s.name })
        : msg(s.tiles === 1 ? "sets.item_one" : "sets.item", { name: s.name, n: s.tiles });
      const o = el("option", "", s.default ? msg("sets.item_default", { item: label }) : label);
      o.value = s.name;
      o.disabled = Boolean(s.error);
      return o;
    });
    const add = el("option", "", msg("sets.new_option"));
    add.value = NEW;
    picker.replaceChildren(none, ...items, add);
    picker.value = sets.current;
    $("set-open").textContent = msg(sets.current ? "sets.teach_tiles" : "sets.teach");
  }

  function pick(name) {
    if (name === NEW) {
      $("set-picker").value = sets.current;
      openPanel(true);
      return;
    }
    sets.current = name;
    remember(name);
    fillPicker();
    if (!$("sets").hidden) {
      if (name) showPanel(false);
      else closePanel(); // no set: nothing to teach or show
    }
  }

  // ---------------------------------------------------------------------------------------------
  // the panel: a new set, teaching, the taught tiles
  // ---------------------------------------------------------------------------------------------
  function openPanel(fresh) {
    const box = $("sets");
    box.hidden = false;
    $("set-open").setAttribute("aria-expanded", "true");
    showPanel(fresh);
    box.scrollIntoView({ block: "start", behavior: "smooth" });
  }

  function closePanel() {
    $("sets").hidden = true;
    $("set-open").setAttribute("aria-expanded", "false");
    message("sets-message", "");
  }

  function showPanel(fresh) {
    fresh = fresh || !sets.current; // no set picked: make one
    $("set-new").hidden = !fresh;
    $("set-body").hidden = fresh;
    if (fresh) {
      $("set-name").value = "";
      $("set-name").focus();
      return;
    }
    $("teach").open = !sets.list.some((s) => s.name === sets.current && s.tiles > 0);
    refreshView();
  }

  async function createSet(ev) {
    ev.preventDefault();
    const name = $("set-name").value.trim();
    if (!name) {
      message("sets-message", msg("sets.give_name"));
      return;
    }
    try {
      await api("POST", "/api/sets", { name });
    } catch (e) {
      e.setName = name;
      message("sets-message", said(e, "create"));
      return;
    }
    message("sets-message", "");
    sets.current = name;
    remember(name);
    await loadSets();
    showPanel(false);
    $("teach").open = true;
  }

  async function refreshView() {
    const name = sets.current;
    let data;
    try {
      data = await api("GET", `/api/sets/${enc(name)}`);
    } catch (e) {
      message("sets-message", said(e, "view"));
      if (e.status === 404) await loadSets();
      return;
    }
    if (name !== sets.current) return; // another set was picked meanwhile
    message("sets-message", "");
    sets.view = data;
    const item = sets.list.find((s) => s.name === name);
    if (item) Object.assign(item, { tiles: data.set.tiles, codes: data.set.codes });
    fillPicker();
    drawView();
  }

  function drawView() {
    const data = sets.view;
    const name = data.set.name;
    $("set-title").textContent = msg(data.set.default ? "sets.title_default" : "sets.title", { name });
    $("set-count").textContent = msg(data.set.codes === 1 ? "sets.count_one" : "sets.count",
      { tiles: data.set.tiles, codes: data.set.codes });
    const suspect = new Map(data.suspects.map((s) => [s.id, suspectText(s)]));
    $("set-suspects").replaceChildren(...data.suspects.map((s) => el("li", "", suspect.get(s.id))));
    if (data.suspects_error) $("set-suspects").append(el("li", "", msg("sets.not_checked", { error: data.suspects_error })));
    $("set-empty").hidden = data.tiles.length > 0;
    const grid = $("set-tiles");
    grid.replaceChildren(...data.tiles.map((t) => {
      const fig = el("figure", "taught");
      fig.dataset.id = t.id;
      fig.dataset.code = t.code;
      const img = el("img");
      img.src = `/api/sets/${enc(name)}/tiles/${enc(t.id)}.png`;
      img.alt = msg("sets.taught_as", { code: t.code });
      img.loading = "lazy";
      const cap = el("figcaption", "", t.code === "none" ? msg("sets.not_a_tile") : t.code);
      if (t.code === "none") fig.classList.add("negative");
      const remove = el("button", "remove", "×");
      remove.type = "button";
      remove.setAttribute("aria-label", msg("sets.remove_tile", { code: t.code }));
      remove.addEventListener("click", () => removeTile(name, t));
      fig.title = msg(t.how === "correction" ? "sets.tile_corrected" : "sets.tile_taught",
        { code: t.code, source: t.source || "?", added: t.added });
      if (suspect.has(t.id)) {
        fig.classList.add("suspect");
        fig.title += ` · ${suspect.get(t.id)}`;
      }
      if (t.how === "correction") fig.classList.add("correction");
      fig.append(img, cap, remove);
      return fig;
    }));
  }

  async function removeTile(name, t) {
    let data;
    try {
      data = await api("DELETE", `/api/sets/${enc(name)}/tiles/${enc(t.id)}`);
    } catch (e) {
      message("sets-message", said(e, "remove"));
      return;
    }
    await setChanged(name);
    toast(msg("sets.removed", { code: t.code, name }), async () => {
      await api("POST", "/api/sets/undo", { undo: data.undo });
      await setChanged(name);
      return msg("sets.put_back", { code: t.code, name });
    });
  }

  async function setChanged(name) {
    await loadSets();
    if (!$("sets").hidden && sets.current === name) await refreshView();
  }

  // ---------------------------------------------------------------------------------------------
  // teaching from a photo: pair first, save when the pairing is right
  // ---------------------------------------------------------------------------------------------
  function clearPairing() {
    sets.preview = null;
    sets.pairing = null;
    sets.mismatch = null;
    $("teach-result").hidden = true;
    $("teach-rows").replaceChildren();
    message("teach-message", "");
  }

  function teachError(e) {
    const box = $("teach-message");
    const lines = (e.data && e.data.lines) || [];
    const facts = { lines, counts: e.data && e.data.counts, rowCounts: e.data && e.data.row_counts, standard: e.standard };
    sets.mismatch = lines.length ? facts : null;
    if (lines.length) drawMismatch();
    else box.textContent = said(e, e.asked);
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }

  // the rows found against the codes given, worded from the server's counts (its English lines
  // where it sends none: the standard layout not fitting the rows found)
  function mismatchLines({ lines, counts, rowCounts, standard }) {
    if (!counts || !counts.length) return lines;
    const out = [];
    if (rowCounts && rowCounts.length === 2) {
      out.push(msg(rowCounts[0] === 1 ? "sets.rows_one" : "sets.rows", { rows: rowCounts[0], codes: rowCounts[1] }));
    }
    for (const c of counts) {
      const found = msg(c.found === 1 ? "sets.tile_found" : "sets.tiles_found", { n: c.found });
      const given = msg(c.given === 1 ? "sets.code_given" : "sets.codes_given", { n: c.given });
      out.push(msg("sets.row_counts", { row: c.row, found, given }) + (c.codes ? ` (${c.codes})` : ""));
    }
    if (standard) out.push(msg("sets.standard_help"));
    return out;
  }

  function drawMismatch() {
    const list = el("ul");
    for (const line of mismatchLines(sets.mismatch)) list.append(el("li", "", line));
    $("teach-message").replaceChildren(el("p", "", msg("sets.mismatch")), list, el("p", "", msg("sets.mismatch_fix")));
  }

  async function pair() {
    clearPairing();
    const file = sets.teachFile;
    const standard = $("teach-standard").checked;
    const codes = $("teach-codes").value.trim();
    if (!file) return message("teach-message", msg("sets.choose_photo"));
    if (!standard && !codes) return message("teach-message", msg("sets.type_codes"));
    if (file.size > MAX_UPLOAD) {
      return message("teach-message", msg("sets.too_large", { mb: (file.size / 1048576).toFixed(0) }));
    }
    const form = new FormData();
    form.append("image", file, file.name || "photo.jpg");
    form.append("set", sets.current);
    if (standard) form.append("standard", "true");
    else form.append("codes", codes);
    $("teach-progress").hidden = false;
    $("teach-pair").disabled = true;
    let data;
    try {
      data = await api("POST", "/api/teach", form);
    } catch (e) {
      Object.assign(e, { standard, asked: "pair" });
      teachError(e);
      return;
    } finally {
      $("teach-progress").hidden = true;
      $("teach-pair").disabled = false;
    }
    sets.preview = data.preview;
    sets.pairing = data;
    drawPairing(data);
    $("teach-result").scrollIntoView({ block: "nearest" });
  }

  // how a tile the detector missed was found, and why a box was dropped (vision/teach/finding.py)
  const FOUND = { faint: "sets.found_faint", split: "sets.found_split", gap: "sets.found_gap" };
  const DROPPED = { weakest: "sets.dropped_weakest", split: "sets.dropped_split" };
  const found = (how) => (FOUND[how] ? msg(FOUND[how]) : how);

  // a taught tile that looks wrong (GET /api/sets/{name}: its code, what it looks like, why)
  function suspectText(s) {
    const facts = { id: s.id, code: s.code, source: s.source || "?", like: s.looks_like };
    if (s.why === "swap") return msg("sets.suspect_swap", facts);
    if (s.own === undefined) return s.message; // an older server: its sentence
    const negative = (code) => code === "none";
    return msg("sets.suspect_looks", {
      ...facts,
      like: negative(s.looks_like) ? msg("sets.like_negative") : msg("sets.like_code", { code: s.looks_like }),
      mine: negative(s.code) ? msg("sets.like_negative") : msg("sets.mine_code", { code: s.code }),
      other: s.other.toFixed(2),
      own: s.own > -1 ? s.own.toFixed(2) : msg("sets.no_other"),
    });
  }

  // what was recovered or dropped to match the codes, one line each (as the CLI's recovery lines)
  function recoveryLines(data) {
    const lines = [];
    data.rows.forEach((row, k) => row.forEach((p, i) => {
      if (p.found) lines.push(msg("sets.recovered_line", { row: k + 1, place: i + 1, code: p.code, how: found(p.found) }));
    }));
    for (const d of data.dropped || []) {
      const why = DROPPED[d.how] ? msg(DROPPED[d.how]) : d.why;
      lines.push(msg("sets.dropped_line", { row: d.row, code: d.read, why }));
    }
    if (data.left_out) lines.push(msg("sets.left_out", { n: data.left_out }));
    return lines;
  }

  // a typed row that did not pair: its counts, and the tiles found where it was looked for (each
  // with the reader's code): not taught, for the player to fix its codes or photograph it again
  function drawUnpaired(u) {
    const box = el("div", "prow");
    box.classList.add("unpaired");
    box.dataset.row = String(u.row);
    const found = msg(u.found === 1 ? "sets.tile_found" : "sets.tiles_found", { n: u.found });
    const given = msg(u.given === 1 ? "sets.code_given" : "sets.codes_given", { n: u.given });
    box.append(el("span", "row-label", msg("sets.row_not_taught", { row: u.row, found, given }) + (u.codes ? ` (${u.codes})` : "")));
    const tiles = el("div", "ptiles");
    for (const t of u.tiles || []) {
      const fig = el("figure", "pair");
      fig.classList.add("skip");
      const img = el("img");
      img.src = t.crop;
      img.alt = t.read;
      fig.append(img, el("figcaption", "", `${t.read}?`));
      tiles.append(fig);
    }
    box.append(tiles);
    return box;
  }

  function drawPairing(data) {
    const rows = $("teach-rows");
    rows.replaceChildren();
    const unpaired = new Map((data.unpaired || []).map((u) => [u.row, u]));
    data.rows.forEach((row, k) => {
      if (unpaired.has(k + 1)) {
        rows.append(drawUnpaired(unpaired.get(k + 1)));
        return;
      }
      const box = el("div", "prow");
      box.append(el("span", "row-label", msg("sets.row", { k: k + 1, n: row.length })));
      const tiles = el("div", "ptiles");
      for (const p of row) {
        const fig = el("figure", "pair");
        fig.dataset.code = p.code;
        if (p.crop) {
          const img = el("img");
          img.src = p.crop;
          img.alt = msg("sets.taught_as", { code: p.code });
          fig.append(img);
        } else {
          fig.classList.add("skip");
          fig.append(el("span", "skip-mark", "x"));
        }
        fig.append(el("figcaption", "", p.code === "none" ? msg("sets.not_a_tile") : p.taught ? p.code : msg("sets.not_taught")));
        if (p.found) { // the detector missed it: recovered for the row (a faint box, a gap, a split box)
          fig.classList.add("recovered");
          fig.style.outline = "2px solid #1e6fd9"; // app.css is another page's: styled here
          fig.append(el("span", "found", msg("sets.found_mark")));
          fig.title = msg("sets.recovered", { how: found(p.found) });
        }
        if (p.disagrees && p.code !== "none") {
          fig.classList.add("differs");
          fig.append(el("span", "read", msg("sets.read_mark", { code: p.read })));
          fig.title = msg("sets.differs", { read: p.read, code: p.code });
        }
        tiles.append(fig);
      }
      box.append(tiles);
      rows.append(box);
    });
    const notes = recoveryLines(data);
    if (notes.length) {
      const box = el("div", "prow recovered-notes");
      box.append(el("span", "row-label", msg("sets.found_or_dropped")));
      const list = el("ul", "small");
      for (const line of notes) list.append(el("li", "", line));
      box.append(list);
      rows.append(box);
    }
    const facts = { tiles: data.tiles, rows: data.rows.length, taught: data.taught, set: data.set };
    const differ = data.disagreeing ? " " + msg("sets.summary_differ", { n: data.disagreeing }) : "";
    const missed = unpaired.size ? " " + msg("sets.summary_unpaired", { n: unpaired.size }) : "";
    $("teach-summary").textContent =
      msg(data.rows.length === 1 ? "sets.summary_one_row" : "sets.summary", facts) + differ + missed;
    $("teach-save").textContent = msg(data.taught === 1 ? "sets.save_one" : "sets.save_n", { n: data.taught });
    $("teach-result").hidden = false;
  }

  async function savePairing() {
    if (!sets.preview) return;
    $("teach-save").disabled = true;
    let data;
    try {
      data = await api("POST", "/api/teach/save", { preview: sets.preview });
    } catch (e) {
      e.asked = "save";
      teachError(e);
      return;
    } finally {
      $("teach-save").disabled = false;
    }
    clearPairing();
    $("teach-codes").value = "";
    sets.teachFile = null;
    $("teach-file").textContent = msg("sets.teach_file");
    $("teach").open = false;
    await setChanged(data.set.name);
    const already = data.already ? " " + msg("sets.already", { n: data.already }) : "";
    toast(msg("sets.taught_n", { n: data.added.length, name: data.set.name }) + already);
  }

  // ---------------------------------------------------------------------------------------------
  // learning from corrections: a tile read from a photo and corrected is taught to the active set
  // ---------------------------------------------------------------------------------------------
  async function corrected(t) {
    const name = sets.current;
    const readId = P.state.readId;
    if (!name || !readId || typeof t.id !== "number") return;
    const key = `${readId}:${t.id}`;
    const before = sets.learned.get(key);
    try {
      if (before) { // corrected again: the earlier code taught is wrong
        sets.learned.delete(key);
        await api("DELETE", `/api/sets/${enc(before.set)}/tiles/${enc(before.id)}`).catch(() => null);
      }
      const data = await api("POST", "/api/teach/correction", { set: name, read_id: readId, tile: t.id, code: t.code });
      const taught = { set: name, id: data.added.id };
      sets.learned.set(key, taught);
      await setChanged(name);
      toast(msg("sets.taught_this", { code: data.added.code, name }), async () => {
        await api("DELETE", `/api/sets/${enc(taught.set)}/tiles/${enc(taught.id)}`);
        if (sets.learned.get(key) === taught) sets.learned.delete(key);
        await setChanged(taught.set);
        return msg("sets.correction_undone", { name: taught.set });
      });
    } catch (e) {
      toast(msg("sets.not_taught_error", { name, error: said(e, "teach") }));
    }
  }

  // "Not a tile" on a photo read with a set: the box's crop becomes the set's negative, so that
  // boxes like it are read as no tile in later photos (with an Undo, like a taught tile). The
  // palette's button belongs to app.js, which removes the tile from the photo; this listens first
  // (capture) to learn which tile it was.
  async function notATile(id) {
    const name = sets.current;
    const readId = P.state.readId;
    const t = P.state.tiles.find((x) => String(x.id) === String(id));
    if (!name || !readId || !t || t.added || typeof t.id !== "number") return;
    try {
      const data = await api("POST", "/api/teach/correction", { set: name, read_id: readId, tile: t.id, code: "none" });
      const taught = { set: name, id: data.added.id };
      await setChanged(name);
      toast(msg("sets.negative", { name }), async () => {
        await api("DELETE", `/api/sets/${enc(taught.set)}/tiles/${enc(taught.id)}`);
        await setChanged(taught.set);
        return msg("sets.negative_undone", { name: taught.set });
      });
    } catch (e) {
      toast(msg("sets.not_taught_error", { name, error: said(e, "teach") }));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // the page's language changed ("mahjong:lang"; index.html's data-msg labels are app.js's): every
  // text this file drew, again in the new language
  // ---------------------------------------------------------------------------------------------
  function relabel() {
    $("sets").setAttribute("aria-label", msg("sets.panel"));
    if (!sets.teachFile) $("teach-file").textContent = msg("sets.teach_file");
    fillPicker();
    if (sets.view) drawView();
    if (sets.pairing) drawPairing(sets.pairing);
    if (sets.mismatch) drawMismatch();
  }

  // ---------------------------------------------------------------------------------------------
  async function start() {
    P = window.mahjongPage;
    ({ $, el } = P);
    try {
      await loadSets();
    } catch (e) {
      document.body.dataset.setsReady = "false"; // no sets: photos are read with the server's default
      return;
    }
    $("set-bar").hidden = false;
    relabel();
    document.addEventListener("mahjong:lang", relabel);
    P.hooks.set = () => sets.current;
    P.hooks.corrected = corrected;
    document.addEventListener("click", (ev) => {
      if (ev.target && ev.target.id === "palette-remove" && P.state.selected != null) notATile(P.state.selected);
    }, true);
    $("set-picker").addEventListener("change", (e) => pick(e.target.value));
    $("set-open").addEventListener("click", () => ($("sets").hidden ? openPanel(false) : closePanel()));
    $("sets-done").addEventListener("click", closePanel);
    $("set-new").addEventListener("submit", createSet);
    $("set-new-cancel").addEventListener("click", () => (sets.current ? showPanel(false) : closePanel()));
    $("teach-photo").addEventListener("change", (e) => {
      const file = e.target.files && e.target.files[0];
      e.target.value = "";
      if (!file) return;
      sets.teachFile = file;
      $("teach-file").textContent = file.name || "photo";
      clearPairing();
    });
    $("teach-standard").addEventListener("change", () => {
      const on = $("teach-standard").checked;
      $("teach-codes").disabled = on;
      $("teach-standard-help").hidden = !on;
    });
    $("teach-pair").addEventListener("click", pair);
    $("teach-save").addEventListener("click", savePairing);
    $("teach-cancel").addEventListener("click", clearPairing);
    $("toast-undo").addEventListener("click", undoToast);
    document.body.dataset.setsReady = "true";
  }

  if (document.body.dataset.ready === "true") start();
  else document.addEventListener("mahjong:ready", start, { once: true });
})();
