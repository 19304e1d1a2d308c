// Taught tile sets on the phone page: pick the set photos are read with, create one, teach it from a
// photo of tiles in rows (the pairing is shown before anything is saved), see and prune what it was
// taught, and teach it every tile corrected on a photo read with it (with an Undo).
// The server keeps the sets (GET/POST /api/sets, /api/teach…); this page keeps only the choice.
"use strict";

(() => {
  const CHOICE = "mahjong-scorer.set.v1";
  const NEW = "__new__"; // the picker's "New set…" (a set name starts with a letter or digit)
  const MAX_UPLOAD = 25 * 1024 * 1024;

  let P, $, el;
  const sets = {
    list: [],          // GET /api/sets: [{name, tiles, codes, default}]
    current: "",       // the picker's set ("": none)
    view: null,        // GET /api/sets/{name} of the set shown in the panel
    teachFile: null,   // the teaching photo chosen
    preview: null,     // the id of the pairing shown, to save
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
      throw Object.assign(new Error("Could not reach the server. Is it still running?"), { data: {} });
    }
    if (!r.ok || data.error) {
      throw Object.assign(new Error(data.error || `The server answered ${r.status}.`), { data, status: r.status });
    }
    return data;
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
      toast(`Could not undo: ${e.message}`);
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
    const none = el("option", "", "None (as shipped)");
    none.value = "";
    const items = sets.list.map((s) => {
      const label = s.error ? `${s.name} (cannot be read)` : `${s.name} · ${s.tiles} tile${s.tiles === 1 ? "" : "s"}`;
      const o = el("option", "", label + (s.default ? " · default" : ""));
      o.value = s.name;
      o.disabled = Boolean(s.error);
      return o;
    });
    const add = el("option", "", "New set…");
    add.value = NEW;
    picker.replaceChildren(none, ...items, add);
    picker.value = sets.current;
    $("set-open").textContent = sets.current ? "Teach · tiles" : "Teach";
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
      message("sets-message", "Give the set a name.");
      return;
    }
    try {
      await api("POST", "/api/sets", { name });
    } catch (e) {
      message("sets-message", e.message);
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
      message("sets-message", e.message);
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
    $("set-title").textContent = `Set “${name}”` + (data.set.default ? " (the server's default)" : "");
    $("set-count").textContent = `(${data.set.tiles} · ${data.set.codes} code${data.set.codes === 1 ? "" : "s"})`;
    const suspect = new Map(data.suspects.map((s) => [s.id, s.message]));
    $("set-suspects").replaceChildren(...data.suspects.map((s) => el("li", "", s.message)));
    if (data.suspects_error) $("set-suspects").append(el("li", "", `Not checked: ${data.suspects_error}`));
    $("set-empty").hidden = data.tiles.length > 0;
    const grid = $("set-tiles");
    grid.replaceChildren(...data.tiles.map((t) => {
      const fig = el("figure", "taught");
      fig.dataset.id = t.id;
      fig.dataset.code = t.code;
      const img = el("img");
      img.src = `/api/sets/${enc(name)}/tiles/${enc(t.id)}.png`;
      img.alt = `taught as ${t.code}`;
      img.loading = "lazy";
      const cap = el("figcaption", "", t.code === "none" ? "not a tile" : t.code);
      if (t.code === "none") fig.classList.add("negative");
      const remove = el("button", "remove", "×");
      remove.type = "button";
      remove.setAttribute("aria-label", `Remove this taught ${t.code}`);
      remove.addEventListener("click", () => removeTile(name, t));
      fig.title = `${t.code} · ${t.how === "correction" ? "corrected" : "taught"} from ${t.source || "?"} · ${t.added}`;
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
      message("sets-message", e.message);
      return;
    }
    await setChanged(name);
    toast(`Removed a taught ${t.code} from “${name}”.`, async () => {
      await api("POST", "/api/sets/undo", { undo: data.undo });
      await setChanged(name);
      return `Put the ${t.code} back into “${name}”.`;
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
    $("teach-result").hidden = true;
    $("teach-rows").replaceChildren();
    message("teach-message", "");
  }

  function teachError(e) {
    const box = $("teach-message");
    box.replaceChildren();
    const lines = (e.data && e.data.lines) || [];
    if (lines.length) {
      box.append(el("p", "", "The tiles found do not match the codes, nothing was saved:"));
      const list = el("ul");
      for (const line of lines) list.append(el("li", "", line));
      box.append(list, el("p", "", "Fix the codes (or retake the photo with the rows apart) and pair again."));
    } else {
      box.textContent = e.message;
    }
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }

  async function pair() {
    clearPairing();
    const file = sets.teachFile;
    const standard = $("teach-standard").checked;
    const codes = $("teach-codes").value.trim();
    if (!file) return message("teach-message", "Choose a photo of the tiles first.");
    if (!standard && !codes) {
      return message("teach-message", "Type the codes of the tiles row by row, or tick the standard layout.");
    }
    if (file.size > MAX_UPLOAD) {
      return message("teach-message", `This photo is too large (${(file.size / 1048576).toFixed(0)} MB; the limit is 25 MB).`);
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
      teachError(e);
      return;
    } finally {
      $("teach-progress").hidden = true;
      $("teach-pair").disabled = false;
    }
    sets.preview = data.preview;
    drawPairing(data);
  }

  const FOUND = {
    faint: "a box the detector was unsure of",
    split: "half of a box holding two tiles",
    gap: "a gap at the row's tile pitch",
  };

  function drawPairing(data) {
    const rows = $("teach-rows");
    rows.replaceChildren();
    data.rows.forEach((row, k) => {
      const box = el("div", "prow");
      box.append(el("span", "row-label", `Row ${k + 1} · ${row.length}`));
      const tiles = el("div", "ptiles");
      for (const p of row) {
        const fig = el("figure", "pair");
        fig.dataset.code = p.code;
        if (p.crop) {
          const img = el("img");
          img.src = p.crop;
          img.alt = `taught as ${p.code}`;
          fig.append(img);
        } else {
          fig.classList.add("skip");
          fig.append(el("span", "skip-mark", "x"));
        }
        fig.append(el("figcaption", "", p.code === "none" ? "not a tile" : p.taught ? p.code : "not taught"));
        if (p.found) { // the detector missed it: recovered for the row (a faint box, a gap, a split box)
          fig.classList.add("recovered");
          fig.style.outline = "2px solid #1e6fd9"; // app.css is another page's: styled here
          fig.append(el("span", "found", "+ found"));
          fig.title = `Recovered: ${FOUND[p.found] || p.found}.`;
        }
        if (p.disagrees && p.code !== "none") {
          fig.classList.add("differs");
          fig.append(el("span", "read", `read ${p.read}`));
          fig.title = `The reader read this tile as ${p.read}; it will be taught as ${p.code}.`;
        }
        tiles.append(fig);
      }
      box.append(tiles);
      rows.append(box);
    });
    const notes = [...(data.recovered || [])];
    if (notes.length) {
      const box = el("div", "prow recovered-notes");
      box.append(el("span", "row-label", "Found or dropped to match the codes"));
      const list = el("ul", "small");
      for (const line of notes) list.append(el("li", "", line));
      box.append(list);
      rows.append(box);
    }
    const differ = data.disagreeing
      ? ` The reader read ${data.disagreeing} of them otherwise (marked): check those codes.` : "";
    $("teach-summary").textContent =
      `${data.tiles} tiles in ${data.rows.length} row${data.rows.length === 1 ? "" : "s"}: ` +
      `${data.taught} to teach “${data.set}”, each the code under its picture.${differ}`;
    $("teach-save").textContent = `Save ${data.taught} tile${data.taught === 1 ? "" : "s"}`;
    $("teach-result").hidden = false;
    $("teach-result").scrollIntoView({ block: "nearest" });
  }

  async function savePairing() {
    if (!sets.preview) return;
    $("teach-save").disabled = true;
    let data;
    try {
      data = await api("POST", "/api/teach/save", { preview: sets.preview });
    } catch (e) {
      teachError(e);
      return;
    } finally {
      $("teach-save").disabled = false;
    }
    clearPairing();
    $("teach-codes").value = "";
    sets.teachFile = null;
    $("teach-file").textContent = "Take or choose a photo of the tiles";
    $("teach").open = false;
    await setChanged(data.set.name);
    toast(`Taught ${data.added.length} tiles to “${data.set.name}”.`);
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
      toast(`Taught this ${data.added.code} to “${name}”.`, async () => {
        await api("DELETE", `/api/sets/${enc(taught.set)}/tiles/${enc(taught.id)}`);
        if (sets.learned.get(key) === taught) sets.learned.delete(key);
        await setChanged(taught.set);
        return `Not taught to “${taught.set}”: the correction stays on this photo only.`;
      });
    } catch (e) {
      toast(`Not taught to “${name}”: ${e.message}`);
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
      toast(`“${name}” will read boxes like this one as no tile.`, async () => {
        await api("DELETE", `/api/sets/${enc(taught.set)}/tiles/${enc(taught.id)}`);
        await setChanged(taught.set);
        return `Not taught to “${taught.set}”: the box is removed from this photo only.`;
      });
    } catch (e) {
      toast(`Not taught to “${name}”: ${e.message}`);
    }
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
