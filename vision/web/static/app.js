// The phone page: take a photo, read it on the server, show tiles and score, tap a tile to fix it.
// Plain JavaScript, no build step and nothing fetched from elsewhere (works offline on a LAN).
"use strict";

(() => {
  const MAX_UPLOAD = 25 * 1024 * 1024;
  const STORE = "mahjong-scorer.settings.v1";
  const LANG = "mahjong-scorer.lang.v1"; // the language chosen with the switch (else the browser's)
  const msg = window.mahjongMessages.t; // every sentence the page shows (messages.js)
  const seatLetter = window.mahjongMessages.seat; // a wind's letter in the page's language
  const unitWord = (unit) => (window.mahjongMessages.has(`unit.${unit}`) ? msg(`unit.${unit}`) : unit);
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  const state = {
    meta: null,
    settings: {
      rules: "riichi", seat_wind: "E", round_wind: "E", win_by: "discard",
      flags: {}, fields: {}, options: {},
    },
    tiles: [],        // as read, then as corrected: {id, code, box, orientation, confidence, ...}
    image: null,      // {width, height, preview}
    winningTile: null, // the tile the player says won (tapped), for this photo
    setApart: null,   // the winning tile the layout found set apart in the photo, if any
    baseHand: null,   // the hand as laid out (tiles and sets), rescored with the toggles' context
    result: null,     // the last payload: hand, score, settlement, candidates, winning, notices
    selected: null,   // id of the tile the palette is open for
    view: null,       // the part of the photo shown: [x, y, w, h] in image pixels
    zoom: true,       // show the tiles' part of the photo (true) or the whole photo
    adding: false,    // the palette is open to add a missed tile
    added: 0,
    seq: 0,
    fileName: "",     // the photo's file name (the table mode names the sheet's photo after it)
    readId: null,     // the server's id of the read (a correction can teach its tile to a set)
    readSet: null,    // the taught set the photo was read with
  };
  // set by table.js (the table mode): where the rules, options and context of a photo come from
  // while a hand of the table is being read; by sets.js: the taught set to read with (set) and
  // what to do when a tile read from the photo is corrected (corrected)
  const hooks = { rules: null, options: null, context: null, set: null, corrected: null };

  // ---------------------------------------------------------------------------------------------
  // tile faces (CJK characters, like the tiles themselves; no font with mahjong glyphs is needed)
  // ---------------------------------------------------------------------------------------------
  const NUM = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
  const SUIT = { m: "萬", p: "筒", s: "索" };
  const HONOUR = ["", "東", "南", "西", "北", "白", "發", "中"];
  const BONUS = ["", "梅", "蘭", "菊", "竹", "春", "夏", "秋", "冬"];

  function tileFace(code, info) {
    const b = el("button", "tile");
    b.type = "button";
    b.dataset.code = code;
    const n = code[0], s = code[1];
    if (code === "back") {
      b.classList.add("back");
    } else if ("mps".includes(s)) {
      const v = n === "0" ? 5 : Number(n);
      b.classList.add(s);
      if (n === "0") b.classList.add("red");
      b.append(el("span", "n", s === "m" ? NUM[v] : String(v)), el("span", "s", SUIT[s]));
    } else if (s === "z") {
      b.classList.add("z", "z" + n);
      b.append(el("span", "h", HONOUR[Number(n)]));
    } else if (s === "f") {
      b.classList.add("f");
      b.append(el("span", "n", String(((Number(n) - 1) % 4) + 1)), el("span", "h", BONUS[Number(n)]));
    }
    b.append(el("span", "code", code === "back" ? "▮" : code));
    const name = (info && info.name) || code;
    b.title = `${code} · ${name}` + (info && info.glyph ? ` ${info.glyph}` : "");
    b.setAttribute("aria-label", name);
    return b;
  }

  // ---------------------------------------------------------------------------------------------
  // settings: rules, winds, win, flags, fields, options (remembered between photos)
  // ---------------------------------------------------------------------------------------------
  function loadSettings() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE) || "null");
      if (saved && typeof saved === "object") Object.assign(state.settings, saved);
    } catch (e) { /* private mode or bad JSON: defaults */ }
  }
  function saveSettings() {
    try { localStorage.setItem(STORE, JSON.stringify(state.settings)); } catch (e) { /* ignore */ }
  }
  const rulesNow = () => (hooks.rules ? hooks.rules() : state.settings.rules);
  const system = () => state.meta.systems.find((s) => s.name === rulesNow()) || state.meta.systems[0];

  function segmented(id, values, labels, key) {
    const box = $(id);
    box.replaceChildren();
    values.forEach((v, i) => {
      const b = el("button", "", labels[i]);
      b.type = "button";
      b.setAttribute("role", "radio");
      b.dataset.value = v;
      b.setAttribute("aria-checked", String(state.settings[key] === v));
      b.addEventListener("click", () => {
        state.settings[key] = v;
        for (const o of box.children) o.setAttribute("aria-checked", String(o.dataset.value === v));
        settingsChanged();
      });
      box.append(b);
    });
  }

  function buildSettings() {
    const rules = $("rules");
    rules.replaceChildren(...state.meta.systems.map((s) => {
      const o = el("option", "", s.label);
      o.value = s.name;
      return o;
    }));
    if (!state.meta.systems.some((s) => s.name === state.settings.rules)) state.settings.rules = "riichi";
    rules.value = state.settings.rules;
    rules.addEventListener("change", () => {
      state.settings.rules = rules.value;
      buildSystemParts();
      settingsChanged();
    });
    const winds = state.meta.winds;
    segmented("seat_wind", winds, winds.map(seatLetter), "seat_wind");
    segmented("round_wind", winds, winds.map(seatLetter), "round_wind");
    for (const id of ["seat_wind", "round_wind"]) nameWinds($(id));
    segmented("win_by", ["discard", "self_draw"], [msg("toggle.discard"), msg("toggle.self_draw")], "win_by");
    buildSystemParts();
  }

  // a wind's button shows its letter in the page's language, as the sheets do (E S W N, Italian
  // E S O N), and says its name (Est, Sud, Ovest, Nord)
  function nameWinds(box) {
    for (const b of box.querySelectorAll("button[data-value]")) {
      b.textContent = seatLetter(b.dataset.value);
      const name = msg(`wind.${b.dataset.value}`);
      b.title = name;
      b.setAttribute("aria-label", name);
    }
  }

  function buildSystemParts() {
    const sys = system();
    const chosen = new Set(state.settings.flags[sys.name] || []);
    const flags = $("flags");
    flags.replaceChildren();
    for (const f of sys.flags) {
      const label = el("label", "flag");
      const box = el("input");
      box.type = "checkbox";
      box.name = f.name;
      box.checked = chosen.has(f.name);
      label.title = f.help || "";
      label.append(box, document.createTextNode(f.label));
      label.dataset.winBy = f.win_by;
      box.addEventListener("change", () => {
        const set = new Set(state.settings.flags[sys.name] || []);
        box.checked ? set.add(f.name) : set.delete(f.name);
        state.settings.flags[sys.name] = [...set];
        settingsChanged();
      });
      flags.append(label);
    }
    const fields = $("fields");
    fields.replaceChildren();
    const values = state.settings.fields[sys.name] || {};
    for (const f of sys.fields) {
      const row = el("label", "row", f.label);
      const input = el("input");
      input.name = f.name;
      if (f.kind === "int") {
        input.type = "number";
        input.min = "0";
        input.max = "99";
        input.inputMode = "numeric";
      } else {
        input.type = "text";
        input.placeholder = msg("settings.example");
        input.autocapitalize = "none";
        input.spellcheck = false;
      }
      input.value = values[f.name] ?? "";
      input.addEventListener("change", () => {
        state.settings.fields[sys.name] = { ...(state.settings.fields[sys.name] || {}), [f.name]: input.value };
        settingsChanged();
      });
      row.append(input);
      fields.append(row);
    }
    const opts = $("options");
    opts.replaceChildren();
    const chosenOpts = state.settings.options[sys.name] || {};
    for (const o of sys.options) {
      const row = el("label", "row", o.name.replaceAll("_", " "));
      let input;
      if (o.choices) {
        input = el("select");
        for (const c of o.choices) {
          const opt = el("option", "", c === o.default ? msg("settings.default", { value: c }) : c);
          opt.value = c;
          input.append(opt);
        }
      } else {
        input = el("input");
        input.type = "text";
        input.placeholder = o.default;
      }
      input.name = o.name;
      input.value = chosenOpts[o.name] ?? (o.choices ? o.default : "");
      input.addEventListener("change", () => {
        const cur = { ...(state.settings.options[sys.name] || {}) };
        if (input.value === "" || input.value === o.default) delete cur[o.name];
        else cur[o.name] = input.value;
        state.settings.options[sys.name] = cur;
        settingsChanged();
      });
      row.append(input);
      opts.append(row, el("p", "opt-help", o.help));
    }
    markFlags();
  }

  function markFlags() {
    for (const label of $("flags").children) {
      const need = label.dataset.winBy;
      const box = label.querySelector("input");
      label.classList.toggle("on", box.checked);
      label.classList.toggle("off", Boolean(need) && need !== state.settings.win_by && !box.checked);
    }
  }

  function summary() {
    const s = state.settings;
    const sys = system();
    const n = (s.flags[sys.name] || []).length;
    $("summary").textContent = `${sys.label.split(" (")[0]} · ${seatLetter(s.seat_wind)} · ${
      msg(s.win_by === "self_draw" ? "summary.self_draw" : "summary.discard")}${n ? ` · ${msg("summary.flags", { n })}` : ""}`;
  }

  let rescoreTimer = 0;
  function settingsChanged() {
    saveSettings();
    markFlags();
    summary();
    syncSettings();
    if (state.baseHand) scoreNow();
    else rescore();
  }

  // the settings panel shows what the toggles beside the score changed
  function syncSettings() {
    for (const key of ["seat_wind", "round_wind", "win_by"]) {
      for (const b of $(key).children) b.setAttribute("aria-checked", String(b.dataset.value === state.settings[key]));
    }
    const chosen = new Set(state.settings.flags[system().name] || []);
    for (const box of $("flags").querySelectorAll("input")) box.checked = chosen.has(box.name);
    markFlags();
  }

  function context() {
    if (hooks.context) return { ...hooks.context(), ...(state.winningTile ? { winning_tile: state.winningTile } : {}) };
    const s = state.settings;
    const sys = system();
    const ctx = {
      win_by: s.win_by, seat_wind: s.seat_wind, round_wind: s.round_wind,
      // a flag that needs the other way of winning is greyed out, and not sent
      flags: (s.flags[sys.name] || []).filter((f) => sys.flags.some((x) => x.name === f && (!x.win_by || x.win_by === s.win_by))),
    };
    const values = s.fields[sys.name] || {};
    for (const f of sys.fields) {
      const v = String(values[f.name] ?? "").trim();
      if (!v) continue;
      ctx[f.name] = f.kind === "int" ? Math.max(0, Math.min(99, parseInt(v, 10) || 0)) : v;
    }
    if (state.winningTile) ctx.winning_tile = state.winningTile;
    return ctx;
  }
  const options = () => (hooks.options ? hooks.options() : { ...(state.settings.options[system().name] || {}) });

  function toggleSettings(show) {
    const box = $("settings");
    box.hidden = show === undefined ? !box.hidden : !show;
    $("settings-toggle").setAttribute("aria-expanded", String(!box.hidden));
    if (!box.hidden) box.scrollIntoView({ block: "start", behavior: "smooth" });
  }

  // ---------------------------------------------------------------------------------------------
  // talking to the server
  // ---------------------------------------------------------------------------------------------
  function showMessage(text) {
    const m = $("message");
    m.textContent = text || "";
    m.hidden = !text;
  }

  function progress(fraction, text) {
    const box = $("progress");
    const fill = $("progress-fill");
    box.hidden = fraction === null;
    document.body.classList.toggle("busy", fraction !== null);
    if (fraction === null) return;
    fill.classList.toggle("indeterminate", fraction < 0);
    fill.style.width = fraction < 0 ? "" : `${Math.round(fraction * 100)}%`;
    $("progress-text").textContent = text;
  }

  function upload(file) {
    showMessage("");
    if (!file) return;
    if (file.size > MAX_UPLOAD) {
      showMessage(msg("upload.too_large", { mb: (file.size / 1048576).toFixed(0) }));
      return;
    }
    if (file.type && !file.type.startsWith("image/")) {
      showMessage(msg("upload.not_image", { name: file.name }));
      return;
    }
    const form = new FormData();
    form.append("image", file, file.name || "photo.jpg");
    form.append("rules", rulesNow());
    form.append("options", JSON.stringify(options()));
    state.winningTile = null;
    state.baseHand = null;
    form.append("context", JSON.stringify(context()));
    form.append("lang", window.mahjongPage.lang);
    const setName = hooks.set ? hooks.set() : null; // null: the server's default set
    if (setName !== null) form.append("set", setName);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/read");
    xhr.responseType = "json";
    xhr.timeout = 120000;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) progress(e.loaded / e.total, msg("upload.progress", { pct: Math.round((100 * e.loaded) / e.total) }));
    };
    xhr.upload.onload = () => progress(-1, msg("upload.reading"));
    xhr.onload = () => {
      progress(null);
      const body = xhr.response;
      if (xhr.status !== 200 || !body || body.error) {
        // the server's sentence is for the API's users: the page says what to do, by status
        const key = { 413: "error.413", 415: "error.415" }[xhr.status] || (xhr.status >= 500 ? "error.server" : "error.read");
        showMessage(msg(key));
        return;
      }
      state.tiles = body.tiles.map((t) => ({ ...t }));
      state.image = body.image;
      state.fileName = file.name || "photo.jpg";
      state.readId = body.read_id || null;
      state.readSet = body.set || null;
      state.view = tilesView(state.tiles, body.image);
      laidOut(body);
      showResult(body);
      $("result").scrollIntoView({ behavior: "smooth", block: "start" });
    };
    xhr.onerror = () => { progress(null); showMessage(msg("error.unreachable")); };
    xhr.ontimeout = () => { progress(null); showMessage(msg("error.timeout")); };
    progress(0, msg("upload.start"));
    xhr.send(form);
  }

  async function relayout() {
    const seq = ++state.seq;
    const body = {
      tiles: state.tiles.map((t) => ({ id: t.id, code: t.code, box: t.box, orientation: t.orientation, turn: t.turn || 0, turn_confidence: t.turn_confidence ?? 1 })),
      rules: rulesNow(), options: options(), context: context(), lang: window.mahjongPage.lang,
    };
    const data = await rescoring("/api/layout", body, seq);
    if (!data) return; // failed (said), or a newer correction is on its way
    const byId = new Map(state.tiles.map((x) => [String(x.id), x]));
    state.tiles = data.tiles.map((x) => ({ ...byId.get(String(x.id)), group: x.group, role: x.role }));
    laidOut(data);
    showResult(data);
  }

  // POST a rescoring request; its answer, or null when it failed (the page says so) or a newer
  // request (seq) has been sent since: only the newest answer is shown
  async function rescoring(url, body, seq) {
    let data;
    try {
      const r = await fetch(url, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      data = await r.json();
      if (!r.ok || data.error) throw new Error(data.error || `status ${r.status}`);
    } catch (e) {
      if (seq === state.seq) showMessage(msg("error.rescore"));
      return null;
    }
    if (seq !== state.seq) return null;
    showMessage("");
    return data;
  }

  // what a layout says that the score endpoint does not: the hand's tiles and sets, and whether a
  // winning tile lay set apart (if not, every rescoring lists the candidates again)
  function laidOut(data) {
    const h = data.hand || {};
    state.baseHand = { hand: h.hand || "", melds: h.melds || [], bonus_tiles: h.bonus_tiles || [] };
    state.setApart = (data.winning && data.winning.set_apart) || null;
  }

  // the hand laid out, in the context the toggles and settings give, with the tile that won
  function handToScore() {
    const ctx = context();
    const hand = { ...state.baseHand, ...ctx };
    for (const key of ["dora_indicators", "ura_dora_indicators"]) {
      if (typeof hand[key] === "string") hand[key] = hand[key].replace(/,/g, " ");
    }
    hand.winning_tile = state.winningTile || state.setApart || null;
    return hand;
  }

  // rescore the same tiles at once (a toggle, the tile that won, a setting): no new photo, no new
  // read, no new layout: the score endpoint
  async function scoreNow() {
    if (!state.baseHand || !state.result) { rescore(); return; }
    const seq = ++state.seq; // a layout of corrected tiles still to come answers after, and wins
    const body = {
      hand: handToScore(), rules: rulesNow(), options: options(), candidates: !state.setApart, lang: window.mahjongPage.lang,
    };
    const data = await rescoring("/api/score", body, seq);
    if (!data) return;
    const tileNotices = (state.result.notices || []).filter((n) => n.about === "tiles");
    state.result = {
      ...state.result,
      score: data.score,
      settlement: data.settlement,
      candidates: data.candidates,
      waits: data.waits,
      winning: data.winning,
      notices: [...tileNotices, ...(data.notices || [])],
    };
    drawHand(state.result);
    drawScore(state.result);
  }

  // ---------------------------------------------------------------------------------------------
  // showing the result
  // ---------------------------------------------------------------------------------------------
  function showResult(data) {
    state.result = data;
    $("result").hidden = false;
    $("intro").hidden = true;
    $("take-text").textContent = msg("take.again");
    const img = $("preview");
    if (state.image && img.dataset.src !== state.image.preview) {
      img.src = state.image.preview;
      img.dataset.src = state.image.preview;
    }
    drawBoxes();
    drawHand(data);
    drawScore(data);
  }

  // back to no photo (the table mode, once a hand is added to the sheet)
  function clearResult() {
    state.seq += 1;
    Object.assign(state, {
      tiles: [], image: null, winningTile: null, result: null, view: null, zoom: true, readId: null, readSet: null,
      baseHand: null, setApart: null,
    });
    $("result").hidden = true;
    $("intro").hidden = false;
    $("take-text").textContent = msg("take.first");
    $("preview").removeAttribute("src");
    delete $("preview").dataset.src;
    $("boxes").replaceChildren();
  }

  // the read photo's tiles, small, for the printable sheet (a JPEG data URL of a few kB)
  function thumbnail(width = 200) {
    const img = $("preview");
    if (!state.image || !img.naturalWidth) return null;
    const k = img.naturalWidth / state.image.width;
    const [vx, vy, vw, vh] = state.view || [0, 0, state.image.width, state.image.height];
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = Math.max(1, Math.round((width * vh) / vw));
    canvas.getContext("2d").drawImage(img, vx * k, vy * k, vw * k, vh * k, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL("image/jpeg", 0.7);
  }

  // what the table mode adds to the sheet: the hand as laid out, and what is left to check
  function reading() {
    if (!state.result) return null;
    const h = state.result.hand || {};
    const hand = {};
    for (const k of ["hand", "melds", "winning_tile", "bonus_tiles"]) if (k in h) hand[k] = h[k];
    const won = state.result.winning || {};
    if (won.tile) hand.winning_tile = won.tile; // tapped, set apart or the best candidate (a notice says so)
    const flagged = state.tiles.filter((x) => x.flagged && !x.corrected).map((x) =>
      `${x.code} at x=${Math.round(x.box[0])} y=${Math.round(x.box[1])} (confidence ${(x.confidence || 0).toFixed(2)})`);
    return {
      hand,
      tiles: state.tiles.map((x) => x.code).join(" "),
      flagged,
      warnings: (state.result.notices || []).map(noticeText),
    };
  }

  function rescore() {
    if (!state.tiles.length) return;
    clearTimeout(rescoreTimer);
    rescoreTimer = setTimeout(relayout, 120);
  }

  // the tiles' part of the photo, with a margin, so that tiles are big enough to tap on a phone
  function tilesView(tiles, image) {
    if (!tiles.length) return null;
    const hs = tiles.map((t) => t.box[3] - t.box[1]).sort((a, b) => a - b);
    const pad = 0.6 * hs[Math.floor(hs.length / 2)];
    let x0 = Math.max(0, Math.min(...tiles.map((t) => t.box[0])) - pad);
    let y0 = Math.max(0, Math.min(...tiles.map((t) => t.box[1])) - pad * 1.2);
    let x1 = Math.min(image.width, Math.max(...tiles.map((t) => t.box[2])) + pad);
    let y1 = Math.min(image.height, Math.max(...tiles.map((t) => t.box[3])) + pad);
    const minH = (x1 - x0) * 0.45; // not a thin strip: keep some table around the tiles
    if (y1 - y0 < minH) {
      const c = (y0 + y1) / 2;
      y0 = Math.max(0, c - minH / 2);
      y1 = Math.min(image.height, y0 + minH);
      y0 = Math.max(0, y1 - minH);
    }
    if ((x1 - x0) * (y1 - y0) > 0.8 * image.width * image.height) return null;
    return [x0, y0, x1 - x0, y1 - y0];
  }

  function placePhoto() {
    const img = $("preview");
    const wrap = $("photo-wrap");
    const { width: W, height: H } = state.image;
    const [vx, vy, vw, vh] = state.zoom && state.view ? state.view : [0, 0, W, H];
    wrap.style.aspectRatio = `${vw} / ${vh}`;
    img.style.width = `${(100 * W) / vw}%`;
    img.style.left = `${(-100 * vx) / vw}%`;
    img.style.top = `${(-100 * vy) / vh}%`;
    $("zoom").hidden = !state.view;
    $("zoom").textContent = msg(state.zoom ? "photo.whole" : "photo.zoom");
    const n = state.tiles.filter((x) => x.flagged && !x.corrected).length;
    $("photo-note").textContent = msg("photo.count", { n: state.tiles.length }) + (n ? ` · ${msg("photo.to_check", { n })}` : "") +
      (state.readSet ? ` · ${msg("photo.set", { name: state.readSet })}` : "");
    return [vx, vy, vw, vh];
  }

  function tileClasses(t) {
    return { flagged: Boolean(t.flagged) && !t.corrected, corrected: Boolean(t.corrected), back: t.code === "back" };
  }

  function drawBoxes() {
    const boxes = $("boxes");
    boxes.replaceChildren();
    if (!state.image) return;
    const [vx, vy, width, height] = placePhoto();
    for (const t of state.tiles) {
      if (t.added) continue; // no box in the photo: the player added it
      const [x0, y0, x1, y1] = [t.box[0] - vx, t.box[1] - vy, t.box[2] - vx, t.box[3] - vy];
      const b = el("button", "box");
      b.type = "button";
      b.dataset.id = t.id;
      b.dataset.code = t.code;
      for (const [k, v] of Object.entries(tileClasses(t))) b.classList.toggle(k, v);
      b.classList.toggle("selected", String(state.selected) === String(t.id));
      b.style.left = `${(100 * x0) / width}%`;
      b.style.top = `${(100 * y0) / height}%`;
      b.style.width = `${(100 * (x1 - x0)) / width}%`;
      b.style.height = `${(100 * (y1 - y0)) / height}%`;
      b.append(el("span", "", t.code + (t.flagged && !t.corrected ? "?" : "")));
      b.setAttribute("aria-label", msg("tile.box_label", { code: t.code }));
      b.addEventListener("click", () => openPalette(t.id));
      boxes.append(b);
    }
  }

  const ROLE_TAG = { winning: "tag.winning", meld: "tag.meld", bonus: "tag.bonus", unused: "tag.unused" };

  // a notice (a problem kind and its facts, from the server) in the page's words
  function noticeText(n) {
    const key = `notice.${n.kind}`;
    return msg(window.mahjongMessages.has(key) ? key : "notice.unknown", n);
  }

  // which tile of the hand the score takes as the winning tile (its id), if any: the one set apart,
  // else the last tile in hand of that code
  function wonTileId(data) {
    const code = data.winning && data.winning.tile;
    if (!code) return null;
    const apart = state.tiles.find((x) => x.role === "winning" && x.code === code);
    if (apart) return apart.id;
    const held = state.tiles.filter((x) => (x.role === "concealed" || x.role === "winning") && x.code === code);
    return held.length ? held[held.length - 1].id : null;
  }

  function drawHand(data) {
    const hand = $("hand");
    hand.replaceChildren();
    const groups = [];
    let last = null;
    for (const x of state.tiles) {
      const key = x.group === null || x.group === undefined ? x.role : `g${x.group}`;
      if (!last || last.key !== key) {
        last = { key, role: x.role, tiles: [] };
        groups.push(last);
      }
      last.tiles.push(x);
    }
    const won = String(wonTileId(data));
    for (const g of groups) {
      const box = el("div", `group ${g.role}`);
      const row = el("div", "tiles");
      for (const x of g.tiles) {
        const face = tileFace(x.code, x);
        face.dataset.id = x.id;
        for (const [k, v] of Object.entries(tileClasses(x))) face.classList.toggle(k, v);
        face.classList.toggle("won", String(x.id) === won);
        if (x.orientation === "sideways") face.classList.add("sideways");
        if (x.flagged && !x.corrected) face.title += ` · ${msg("tile.read_confidence", { pct: Math.round(100 * (x.confidence || 0)) })}`;
        if (x.checks && !x.corrected) {
          const kinds = (data.notices || []).filter((n) => (n.tiles || []).map(String).includes(String(x.id)));
          for (const n of kinds) face.title += ` · ${noticeText(n)}`;
        }
        if (x.why) face.title += ` · ${msg("tile.left_out", { why: msg(`why.${x.why.replace(" ", "_")}`) })}`;
        face.addEventListener("click", () => openPalette(x.id));
        row.append(face);
      }
      box.append(row, el("span", "tag", ROLE_TAG[g.role] ? msg(ROLE_TAG[g.role]) : ""));
      hand.append(box);
    }
    if (!state.tiles.length) hand.append(el("p", "small", msg("hand.no_tiles")));
    const h = data.hand || {};
    const w = data.winning || {};
    const melds = (h.melds || []).map((m) => (m.open ? `[${m.tiles}]` : `(${m.tiles})`)).join(" ");
    const parts = [h.hand, melds, w.tile ? msg(w.from === "candidate" ? "hand.win_guess" : "hand.win", { tile: w.tile }) : "",
      (h.bonus_tiles || []).length ? msg("hand.bonus", { tiles: h.bonus_tiles.join("") }) : ""].filter(Boolean);
    $("hand-line").textContent = parts.join(" · ");
    const problems = $("problems");
    const tileNotices = (data.notices || []).filter((n) => n.about === "tiles");
    problems.replaceChildren(...tileNotices.map((n) => {
      const li = el("li", "", noticeText(n));
      li.dataset.kind = n.kind;
      return li;
    }));
  }

  function fmt(n) {
    return (n > 0 ? "+" : "") + String(n);
  }

  // a row of buttons, one pressed: a toggle beside the score
  function toggleRow(label, values, labels, current, onPick) {
    const row = el("div", "toggle-row");
    row.append(el("span", "label", label));
    const seg = el("div", "seg");
    seg.setAttribute("role", "radiogroup");
    seg.setAttribute("aria-label", label);
    values.forEach((v, i) => {
      const b = el("button", "", labels[i]);
      b.type = "button";
      b.setAttribute("role", "radio");
      b.dataset.value = v;
      b.setAttribute("aria-checked", String(current === v));
      b.addEventListener("click", () => { if (current !== v) onPick(v); });
      seg.append(b);
    });
    row.append(seg);
    return row;
  }

  // what decides the score besides the tiles, beside it: how it was won, the seat, riichi; each
  // change rescores at once (the table mode sets these in its own form)
  function drawToggles(box) {
    if (hooks.context) return;
    const s = state.settings;
    const sys = system();
    const bar = el("div", "score-context");
    bar.id = "score-context";
    bar.append(toggleRow(msg("toggle.win_by"), ["discard", "self_draw"], [msg("toggle.discard"), msg("toggle.self_draw")],
      s.win_by, (v) => { s.win_by = v; settingsChanged(); }));
    bar.append(toggleRow(msg("toggle.seat"), state.meta.winds, state.meta.winds.map(seatLetter), s.seat_wind,
      (v) => { s.seat_wind = v; settingsChanged(); }));
    nameWinds(bar.lastChild);
    if (sys.flags.some((f) => f.name === "riichi")) {
      const chosen = new Set(s.flags[sys.name] || []);
      const label = el("label", `flag${chosen.has("riichi") ? " on" : ""}`);
      const check = el("input");
      check.type = "checkbox";
      check.name = "riichi";
      check.checked = chosen.has("riichi");
      check.addEventListener("change", () => {
        const set = new Set(s.flags[sys.name] || []);
        check.checked ? set.add("riichi") : set.delete("riichi");
        s.flags[sys.name] = [...set];
        settingsChanged();
      });
      label.append(check, document.createTextNode(msg("toggle.riichi")));
      bar.append(label);
    }
    box.append(bar);
  }

  // one candidate (or wait) as a tile with its score in short and what its win needs
  function candidateItem(tag, c) {
    const b = el(tag, `cand${c.valid ? "" : " no-win"}`);
    b.dataset.code = c.code;
    const face = tileFace(c.code, c);
    face.tabIndex = -1;
    face.setAttribute("aria-hidden", "true");
    const what = c.valid ? `${c.total} ${unitWord(c.unit)}${c.fu ? ` ${msg("score.fu", { fu: c.fu })}` : ""}` : msg("candidates.no_win");
    const text = el("span", "cand-text");
    text.append(el("b", "", what));
    for (const need of c.needs || []) text.append(el("small", "", msg(`needs.${need}`)));
    b.append(face, text);
    b.setAttribute("aria-label", `${c.name}: ${what}`);
    return b;
  }

  // the tiles that could have won (no winning tile set apart), best first: tap one to say it won
  function drawCandidates(box, data) {
    const list = data.candidates || [];
    if (!list.length) return;
    const w = data.winning || {};
    const wrap = el("div", "candidates");
    wrap.id = "candidates";
    wrap.append(el("p", "cand-title", msg(w.from === "given" ? "candidates.title_chosen" : "candidates.title")));
    const row = el("div", "cand-row");
    for (const c of list) {
      const b = candidateItem("button", c);
      b.type = "button";
      b.setAttribute("aria-pressed", String(c.code === w.tile));
      b.addEventListener("click", () => { state.winningTile = c.code; scoreNow(); });
      row.append(b);
    }
    wrap.append(row);
    box.append(wrap);
  }

  // a hand one tile short of a win (a ready hand): each tile it waits on, with what it would score
  function drawWaits(box, data) {
    const list = data.waits || [];
    if (!list.length) return;
    const wrap = el("div", "candidates");
    wrap.classList.add("waits");
    wrap.id = "waits";
    wrap.append(el("p", "cand-title", msg("waits.title")));
    const row = el("div", "cand-row");
    for (const c of list) row.append(candidateItem("span", c));
    wrap.append(row);
    box.append(wrap);
  }

  // the verdict above the score: sure, or what to check before trusting it (issue 33's verdict,
  // worded by the server: data.verdict.line); a rescore keeps the read's verdict. Without one (a
  // server before it), the tiles still marked and the notices on the tiles say it
  function drawVerdict(data) {
    const slot = $("verdict");
    const verdict = data.verdict || (state.result && state.result.verdict);
    const marked = state.tiles.filter((x) => x.flagged && !x.corrected).length;
    const notes = (data.notices || []).filter((n) => n.about === "tiles").length;
    if (verdict && verdict.line) {
      slot.textContent = verdict.line;
      slot.dataset.sure = String(Boolean(verdict.sure));
      slot.hidden = false;
      return;
    }
    delete slot.dataset.sure;
    slot.hidden = !(marked + notes);
    slot.textContent = marked ? msg("verdict.to_check", { n: marked }) : notes ? msg("verdict.notes", { n: notes }) : "";
  }

  function drawScore(data) {
    drawVerdict(data);
    const box = $("score");
    box.replaceChildren();
    const s = data.score;
    box.dataset.valid = String(Boolean(s.valid));
    box.dataset.total = String(s.valid ? s.total : "invalid");
    box.dataset.winning = (data.winning && data.winning.tile) || "";
    box.append(el("h2", "", msg("score.title", { rules: system().label })));
    drawToggles(box);
    const notices = (data.notices || []).filter((n) => n.about === "score");
    for (const n of notices) {
      const p = el("p", n.kind === "winning_guessed" ? "notice guess" : "invalid", noticeText(n));
      p.dataset.kind = n.kind;
      box.append(p);
    }
    drawCandidates(box, data);
    drawWaits(box, data);
    if (!s.valid) {
      if (!notices.length) box.append(el("p", "invalid", msg("score.none")));
      return;
    }
    // the score's words come from the server in the page's language (the seed's terms in Italian)
    const words = s.words || { elements: Object.entries(s.elements || {}), unit: s.unit, limit: s.limit, notes: s.notes };
    const total = el("p", "total");
    total.append(el("span", "big", String(s.total)), el("span", "unit", words.unit));
    if (s.fu) total.append(el("span", "unit", msg("score.fu", { fu: s.fu })));
    if (words.limit) total.append(el("span", "extra", words.limit));
    const seat = (hooks.context ? data.hand && data.hand.seat_wind : null) || state.settings.seat_wind;
    if (data.settlement && data.settlement[seat] > 0) {
      total.append(el("span", "extra", msg("score.to_winner", { points: data.settlement[seat], seat: seatLetter(seat) })));
    }
    box.append(total);
    const table = el("table", "elements");
    for (const [name, value] of words.elements || []) {
      const tr = el("tr");
      tr.append(el("td", "", name), el("td", "v", String(value)));
      table.append(tr);
    }
    const sum = el("tr", "sum");
    sum.append(el("td", "", msg("score.total")), el("td", "v", `${s.total} ${words.unit}`));
    table.append(sum);
    box.append(table);
    if (data.settlement) {
      const seats = el("div", "seats");
      for (const w of ["E", "S", "W", "N"]) {
        const v = data.settlement[w] || 0;
        const c = el("div", `seat ${v > 0 ? "plus" : v < 0 ? "minus" : ""} ${w === seat ? "me" : ""}`);
        c.append(el("b", "", w === seat ? msg("score.winner_seat", { seat: seatLetter(w) }) : seatLetter(w)), el("span", "", fmt(v)));
        seats.append(c);
      }
      box.append(el("h2", "", msg("score.payments")), seats);
    }
    if ((words.notes || []).length) {
      const notes = el("ul", "notes");
      for (const n of words.notes) notes.append(el("li", "", n));
      box.append(notes);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // the palette: tap a tile, choose what it really is
  // ---------------------------------------------------------------------------------------------
  function buildPalette() {
    const grid = $("palette-grid");
    const rows = { m: [], p: [], s: [], z: [], f: [], x: [] };
    for (const t of state.meta.palette) {
      const key = t.code[0] === "0" || t.code === "back" ? "x" : t.code[1];
      rows[key].push(t);
    }
    for (const key of ["m", "p", "s", "z", "f", "x"]) {
      const row = el("div", "prow");
      for (const t of rows[key]) {
        const face = tileFace(t.code, t);
        face.addEventListener("click", () => choose(t.code));
        row.append(face);
      }
      grid.append(row);
    }
    $("palette-remove").addEventListener("click", () => {
      const id = state.selected;
      closePalette();
      state.tiles = state.tiles.filter((t) => String(t.id) !== String(id));
      relayout();
    });
    $("palette-winning").addEventListener("click", () => {
      const t = current();
      closePalette();
      if (!t) return;
      state.winningTile = t.code; // "this one won": rescored at once, the tiles as they are
      scoreNow();
    });
    $("palette").addEventListener("close", () => { state.selected = null; state.adding = false; drawBoxes(); });
  }

  const current = () => state.tiles.find((t) => String(t.id) === String(state.selected));

  function showPalette(title, adding) {
    state.adding = adding;
    $("palette-title").textContent = title;
    const held = !adding && current() && ["concealed", "winning"].includes(current().role);
    $("palette-winning").hidden = !held;
    $("palette-remove").hidden = adding;
    const dlg = $("palette");
    if (typeof dlg.showModal === "function") dlg.showModal();
    else dlg.setAttribute("open", "");
  }

  function openAdd() {
    state.selected = null;
    for (const face of $("palette-grid").querySelectorAll(".tile")) face.classList.remove("current", "alt");
    $("palette-read").textContent = msg("palette.joins");
    const canvas = $("crop");
    canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
    showPalette(msg("palette.missing"), true);
  }

  // a missed tile gets a box just left of the concealed row, so the layout counts it concealed
  function addTile(code) {
    const counts = new Map();
    for (const t of state.tiles) if (t.role === "concealed") counts.set(t.group, (counts.get(t.group) || 0) + 1);
    let main = null;
    for (const [g, n] of counts) if (main === null || n > counts.get(main)) main = g;
    const row = state.tiles.filter((t) => t.role === "concealed" && t.group === main);
    let box = [0, 0, 40, 56];
    if (row.length) {
      const first = row.reduce((a, b) => (b.box[0] < a.box[0] ? b : a));
      const w = first.box[2] - first.box[0];
      box = [first.box[0] - w - 1, first.box[1], first.box[0] - 1, first.box[3]];
    }
    state.added += 1;
    state.tiles.push({ id: `added-${state.added}`, code, box, orientation: "upright", corrected: true, added: true });
    relayout();
  }

  function openPalette(id) {
    state.selected = id;
    const t = current();
    if (!t) return;
    const alts = new Set((t.alternatives || []).map((a) => a.code));
    for (const face of $("palette-grid").querySelectorAll(".tile")) {
      face.classList.toggle("current", face.dataset.code === t.code);
      face.classList.toggle("alt", alts.has(face.dataset.code) && face.dataset.code !== t.code);
    }
    const conf = t.confidence !== undefined && !t.corrected ? msg("palette.confidence", { pct: Math.round(100 * t.confidence) }) : "";
    const alt = (t.alternatives || []).filter((a) => a.code !== t.code)
      .map((a) => `${a.code} ${Math.round(100 * a.confidence)}%`).join(", ");
    $("palette-read").textContent = (t.corrected ? msg("palette.corrected_to", { code: t.code }) : msg("palette.read_as", { code: t.code, conf })) +
      (alt && !t.corrected ? msg("palette.or", { alts: alt }) : "");
    drawCrop(t);
    drawBoxes();
    showPalette(msg("palette.which"), false);
  }

  function closePalette() {
    const dlg = $("palette");
    if (typeof dlg.close === "function" && dlg.open) dlg.close();
    else dlg.removeAttribute("open");
  }

  function drawCrop(t) {
    const canvas = $("crop");
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#eee";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    const img = $("preview");
    if (!img.complete || !img.naturalWidth || !state.image || t.added) return;
    const k = img.naturalWidth / state.image.width;
    const [x0, y0, x1, y1] = t.box.map((v) => v * k);
    const w = x1 - x0, h = y1 - y0;
    const s = Math.min(canvas.width / w, canvas.height / h);
    ctx.drawImage(img, x0, y0, w, h, (canvas.width - w * s) / 2, (canvas.height - h * s) / 2, w * s, h * s);
  }

  function choose(code) {
    if (state.adding) {
      state.adding = false;
      closePalette();
      addTile(code);
      return;
    }
    const t = current();
    closePalette();
    if (!t) return;
    if (t.code !== code) {
      if (state.winningTile && state.winningTile === t.code) state.winningTile = null;
      t.code = code;
      t.corrected = true;
      if (hooks.corrected && !t.added) hooks.corrected(t);
    }
    t.flagged = false;
    relayout();
  }

  // ---------------------------------------------------------------------------------------------
  // the page's language: Italian or English, the browser's unless the switch chose (remembered)
  // ---------------------------------------------------------------------------------------------
  // the page's own labels in the messages' words (index.html marks them with data-msg)
  function labelPage() {
    const has = window.mahjongMessages.has; // without the table (no server), the HTML's English stays
    for (const e of document.querySelectorAll("[data-msg]")) {
      if (has(e.dataset.msg)) e.textContent = msg(e.dataset.msg);
    }
    for (const e of document.querySelectorAll("[data-msg-placeholder]")) {
      if (has(e.dataset.msgPlaceholder)) e.placeholder = msg(e.dataset.msgPlaceholder);
    }
    if (has("page.title")) document.title = msg("page.title");
  }

  function browserLang() {
    let saved = null;
    try { saved = localStorage.getItem(LANG); } catch (e) { /* private mode: the browser's */ }
    if (saved === "it" || saved === "en") return saved;
    return String(navigator.language || "").toLowerCase().startsWith("it") ? "it" : "en";
  }

  // every text the page has drawn, again in the language now chosen
  function relabel() {
    labelPage();
    for (const b of $("lang-switch").children) b.setAttribute("aria-pressed", String(b.dataset.lang === window.mahjongPage.lang));
    if (!state.meta) return;
    segmented("win_by", ["discard", "self_draw"], [msg("toggle.discard"), msg("toggle.self_draw")], "win_by");
    for (const id of ["seat_wind", "round_wind"]) nameWinds($(id));
    buildSystemParts();
    summary();
    if (state.result) {
      drawBoxes();
      drawHand(state.result);
      drawScore(state.result);
      scoreNow(); // the score's own words (its elements, notes) come from the server, in this language
    }
    $("take-text").textContent = msg(state.result ? "take.again" : "take.first");
  }

  // the page's words in `lang` from the server (GET /api/messages: every key of the page's table,
  // worded); then every text again, and "mahjong:lang" (the table mode draws itself again)
  async function fetchWords(lang) {
    const r = await fetch(`/api/messages?lang=${encodeURIComponent(lang)}`);
    const body = await r.json();
    if (!r.ok || !body.messages) throw new Error(body.error || `status ${r.status}`);
    return body.messages;
  }

  let langSeq = 0;
  async function setLang(lang, remember) {
    const seq = ++langSeq;
    let messages = null;
    for (const choice of lang === "en" ? ["en"] : [lang, "en"]) { // not to be had: English
      try {
        messages = await fetchWords(choice);
        lang = choice;
        break;
      } catch (e) { /* the next choice */ }
    }
    if (seq !== langSeq) return; // a later choice is on its way
    if (!messages) return; // no server: the HTML's own English labels stay
    if (remember) {
      try { localStorage.setItem(LANG, lang); } catch (e) { /* not remembered */ }
    }
    window.mahjongPage.lang = lang;
    window.mahjongMessages.use(messages);
    document.documentElement.lang = lang;
    relabel();
    document.dispatchEvent(new Event("mahjong:lang"));
  }

  // the top bar's height, for the scroll to stop below it (app.css: scroll-padding-top); it wraps
  // onto a second line on a narrow phone
  function watchTopbar() {
    const bar = document.querySelector(".topbar");
    const keep = () => document.documentElement.style.setProperty("--topbar-h", `${bar.offsetHeight}px`);
    keep();
    if (window.ResizeObserver) new ResizeObserver(keep).observe(bar);
  }

  async function start() {
    watchTopbar();
    for (const b of $("lang-switch").children) b.addEventListener("click", () => setLang(b.dataset.lang, true));
    await setLang(browserLang(), false);
    loadSettings();
    try {
      const r = await fetch("/api/meta");
      state.meta = await r.json();
      if (!r.ok || !state.meta.systems) throw new Error(state.meta.error || `status ${r.status}`);
    } catch (e) {
      showMessage(msg("error.meta"));
      return;
    }
    buildSettings();
    buildPalette();
    summary();
    $("photo").addEventListener("change", (e) => {
      const file = e.target.files && e.target.files[0];
      upload(file);
      e.target.value = "";
    });
    $("settings-toggle").addEventListener("click", () => toggleSettings());
    $("settings-done").addEventListener("click", () => toggleSettings(false));
    $("add-tile").addEventListener("click", openAdd);
    $("zoom").addEventListener("click", () => { state.zoom = !state.zoom; drawBoxes(); });
    document.body.dataset.ready = "true";
    document.dispatchEvent(new CustomEvent("mahjong:ready"));
  }

  // what table.js (the table mode) uses of this page
  window.mahjongPage = { state, hooks, el, $, clearResult, thumbnail, reading, rescore, lang: "en" };

  start();
})();
