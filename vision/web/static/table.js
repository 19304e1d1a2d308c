// The table mode: a table's session hand after hand (by photo, with tap-to-correct, or typed),
// draws and penalties, with the running totals the server's session engine computes: this page
// does no arithmetic on points, it sends the whole session and shows the sheet it gets back.
// The session is kept in localStorage until a new table is started, so a reload loses nothing.
"use strict";

(() => {
  const STORE = "mahjong-scorer.table.v1";
  const MODE = "mahjong-scorer.mode.v1";
  const SEATS = ["E", "S", "W", "N"];
  // the sheet's closing rows, labelled as the sheets label them (the seeds' terms in both languages)
  const CLOSING = [
    ["mini_punti", "table.mini_punti"], ["table_points", "table.punti_tavolo"],
    ["points", "table.closing_points"], ["uma", "table.uma"], ["final", "table.final"],
  ];
  const KINDS = [["hand", "table.kind_hand"], ["draw", "table.kind_draw"], ["penalty", "table.kind_penalty"],
    ["chombo", "table.kind_chombo"]];

  let P, $, el;

  // The page's language: the page object's `lang` ("en" or "it"), the page's words by key
  // (messages.js: every sentence is in the page's one table). The page sends "mahjong:lang" on the
  // document when they change, and the table mode draws itself again; the sheet comes worded in
  // `lang` from the server.
  const lang = () => (P && P.lang === "it" ? "it" : "en");
  const t = (key, args) => window.mahjongMessages.t(key, args);
  const seatLetter = (letter) => window.mahjongMessages.seat(letter);
  let meta = null; // GET /api/session/meta: infractions per system, systems scoring the losers
  let seq = 0;
  const table = { setup: null, rows: [], thumbs: {}, sheet: null, photos: 0, exported: "" };
  const form = {
    kind: "hand", winBy: "discard", source: "photo", draw: "exhaustive",
    flags: new Set(), riichi: new Set(), tenpai: new Set(),
  };

  // ---------------------------------------------------------------------------------------------
  // keeping the session in the browser
  // ---------------------------------------------------------------------------------------------
  function load() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE) || "null");
      if (saved && typeof saved === "object" && saved.setup) Object.assign(table, saved);
    } catch (e) { /* nothing kept, or not readable: a new table */ }
  }
  function save() {
    try {
      localStorage.setItem(STORE, JSON.stringify(table));
      return true;
    } catch (e) {
      message(t("table.storage_full"));
      return false;
    }
  }

  function message(text) {
    const m = $("t-message");
    m.textContent = text || "";
    m.hidden = !text;
    if (text) m.scrollIntoView({ block: "nearest" });
  }

  const rules = () => (table.setup ? table.setup.rules : P.state.settings.rules);
  const system = () => P.state.meta.systems.find((s) => s.name === rules()) || P.state.meta.systems[0];
  const names = () => table.setup.players.map((p) => p.name);
  const isRiichi = () => rules() === "riichi";
  const next = () => (table.sheet && table.sheet.next) || {};
  function windsNow() {
    const n = next();
    if (n.winds) return n.winds;
    return Object.fromEntries(table.setup.players.map((p) => [p.name, p.seat]));
  }
  const splitCodes = (text) => String(text || "").replace(/,/g, " ").split(/\s+/).filter(Boolean);

  function sessionDoc(setup, rows) {
    return {
      tournament: setup.tournament, session: setup.session, table: setup.table,
      players: setup.players, hands: rows,
    };
  }

  // ---------------------------------------------------------------------------------------------
  // the one road to the totals: the session engine on the server
  // ---------------------------------------------------------------------------------------------
  async function post(path, body) {
    const r = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    return r;
  }

  // send the session with its new rows; keep them only if the engine can follow them
  async function commit(setup, rows, thumbs, after) {
    const mine = ++seq;
    document.body.classList.add("t-busy");
    let data;
    try {
      const r = await post("/api/session", {
        rules: setup.rules, options: setup.options || {}, session: sessionDoc(setup, rows), lang: lang(),
      });
      data = await r.json();
      if (!r.ok || data.error) throw new Error(data.error || `status ${r.status}`);
    } catch (e) {
      if (mine === seq) document.body.classList.remove("t-busy");
      message(e instanceof TypeError ? t("table.unreachable")
        : t("table.sheet_says", { error: e.message }));
      return false;
    }
    if (mine !== seq) return false;
    document.body.classList.remove("t-busy");
    Object.assign(table, { setup, rows, thumbs, sheet: data.sheet });
    message("");
    save();
    render();
    if (after) after(data.sheet);
    return true;
  }

  async function exportSheet(format) {
    const used = {};
    for (const r of table.rows) if (r.photo && table.thumbs[r.photo]) used[r.photo] = table.thumbs[r.photo];
    let r;
    try {
      r = await post("/api/session/export", {
        rules: table.setup.rules, options: table.setup.options || {},
        session: sessionDoc(table.setup, table.rows), format, thumbs: format === "html" ? used : {}, lang: lang(),
      });
    } catch (e) {
      message(t("table.export_unreachable"));
      return;
    }
    if (!r.ok) {
      let text = `status ${r.status}`;
      try { text = (await r.json()).error || text; } catch (e) { /* not JSON */ }
      message(t("table.export_failed", { error: text }));
      return;
    }
    const blob = await r.blob();
    const m = /filename="([^"]+)"/.exec(r.headers.get("Content-Disposition") || "");
    const a = el("a");
    a.href = URL.createObjectURL(blob);
    a.download = m ? m[1] : `session.${format}`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 30000);
    table.exported = t("table.exported", { format: format.toUpperCase(), file: a.download, time: new Date().toLocaleTimeString() });
    save();
    $("t-exported").textContent = table.exported;
  }

  // ---------------------------------------------------------------------------------------------
  // the setup
  // ---------------------------------------------------------------------------------------------
  function buildSetup() {
    const sel = $("t-rules");
    sel.replaceChildren(...P.state.meta.systems.map((s) => {
      const o = el("option", "", s.label);
      o.value = s.name;
      return o;
    }));
    sel.value = P.state.settings.rules;
    const box = $("t-players");
    box.replaceChildren();
    for (const seat of SEATS) {
      const row = el("div", "player-row");
      const name = el("input");
      Object.assign(name, { type: "text", name: `name-${seat}`, autocomplete: "off" });
      name.dataset.seat = seat;
      const num = el("input", "num");
      Object.assign(num, { type: "text", name: `number-${seat}`, placeholder: "N°", inputMode: "numeric", autocomplete: "off" });
      num.dataset.seat = seat;
      const tag = el("b", "seat-tag", seat);
      tag.dataset.seat = seat;
      row.append(tag, name, num);
      box.append(row);
    }
    labelSetup();
    $("t-setup").addEventListener("submit", (e) => {
      e.preventDefault();
      const r = $("t-rules").value;
      const setup = {
        tournament: $("t-tournament").value.trim(), session: $("t-session").value.trim(),
        table: $("t-table").value.trim(), rules: r, options: { ...(P.state.settings.options[r] || {}) },
        players: SEATS.map((seat) => ({
          name: $("t-players").querySelector(`input[name='name-${seat}']`).value.trim(),
          seat,
          number: $("t-players").querySelector(`input[name='number-${seat}']`).value.trim(),
        })),
      };
      commit(setup, [], {}, () => { table.photos = 0; table.exported = ""; save(); render(); });
    });
  }

  // the setup's seats and name fields in the page's language (again when it changes)
  function labelSetup() {
    for (const row of $("t-players").children) {
      const [tag, name, num] = row.children;
      const seat = seatLetter(tag.dataset.seat);
      tag.textContent = seat;
      name.placeholder = t("table.player_starting", { seat });
      name.setAttribute("aria-label", t("table.player_name_label", { seat }));
      num.setAttribute("aria-label", t("table.player_number_label", { seat }));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // the add form
  // ---------------------------------------------------------------------------------------------
  function seg(id, values, current, onPick) {
    const box = $(id);
    box.replaceChildren();
    for (const [v, label] of values) {
      const b = el("button", "", label);
      b.type = "button";
      b.dataset.value = v;
      b.setAttribute("role", "radio");
      b.setAttribute("aria-checked", String(v === current));
      b.addEventListener("click", () => {
        for (const o of box.children) o.setAttribute("aria-checked", String(o.dataset.value === v));
        onPick(v);
      });
      box.append(b);
    }
  }

  function chips(id, items, chosen, onChange) {
    const box = $(id);
    box.replaceChildren();
    for (const [value, label, title] of items) {
      const lab = el("label", "flag");
      const input = el("input");
      input.type = "checkbox";
      input.name = value;
      input.checked = chosen.has(value);
      lab.classList.toggle("on", input.checked);
      if (title) lab.title = title;
      input.addEventListener("change", () => {
        input.checked ? chosen.add(value) : chosen.delete(value);
        lab.classList.toggle("on", input.checked);
        if (onChange) onChange();
      });
      lab.append(input, document.createTextNode(label));
      box.append(lab);
    }
  }

  // a picker of the players (with the wind each holds now); ``blank``: a first choice of none, the
  // picker's value until someone is chosen (the winner and the discarder are asked for each hand)
  function playerSelect(id, exclude, blank) {
    const sel = $(id);
    const keep = sel.value;
    const winds = windsNow();
    const people = names().filter((n) => n !== exclude).map((n) => {
      const o = el("option", "", `${n} (${winds[n] ? seatLetter(winds[n]) : "?"})`);
      o.value = n;
      return o;
    });
    if (blank) {
      const none = el("option", "", blank);
      none.value = "";
      people.unshift(none);
    }
    sel.replaceChildren(...people);
    sel.value = [...sel.options].some((o) => o.value === keep) ? keep : sel.options[0] ? sel.options[0].value : "";
  }

  function buildForm() {
    const kinds = KINDS.filter(([k]) => k !== "chombo" || (meta && meta.chombo.includes(rules())));
    if (!kinds.some(([k]) => k === form.kind)) form.kind = "hand";
    seg("t-kind", kinds.map(([k, label]) => [k, t(label)]), form.kind, (v) => { form.kind = v; showForm(); });
    seg("t-winby", [["discard", t("toggle.discard")], ["self_draw", t("toggle.self_draw")]], form.winBy, (v) => {
      form.winBy = v; showForm(); photoChanged();
    });
    seg("t-source", [["photo", t("table.photo")], ["typed", t("table.typed")]], form.source, (v) => { form.source = v; showForm(); });
    seg("t-drawkind", [["exhaustive", t("table.exhaustive")], ["abortive", t("table.abortive")]], form.draw, (v) => { form.draw = v; });
    const sys = system();
    // a riichi declaration is its own row of chips (it also pays the stick): not a flag here
    const flags = sys.flags.filter((f) => !(isRiichi() && f.name === "riichi"));
    for (const f of [...form.flags]) if (!flags.some((x) => x.name === f)) form.flags.delete(f);
    chips("t-flags", flags.map((f) => [f.name, f.label, f.help]), form.flags, () => { situationCount(); photoChanged(); });
    situationCount();
    const people = names().map((n) => [n, n, ""]);
    chips("t-riichi", people, form.riichi, photoChanged);
    chips("t-tenpai", people, form.tenpai);
    playerSelect("t-winner", null, t("table.who_won"));
    playerSelect("t-pplayer");
    playerSelect("t-discarder", $("t-winner").value, t("table.who_discarded"));
    const inf = $("t-infraction");
    const keep = inf.value;
    const list = (meta && meta.infractions[rules()]) || ["referee"];
    inf.replaceChildren(...list.map((k) => {
      const o = el("option", "", t(`infraction.${k}`));
      o.value = k;
      return o;
    }));
    if (list.includes(keep)) inf.value = keep;
    buildOthers();
    showForm();
  }

  // Australian and Classical settle the losers' hands too: each other player's score (or hand)
  function buildOthers() {
    const box = $("t-others");
    const keep = Object.fromEntries([...box.querySelectorAll("input")].map((i) => [i.dataset.player, i.value]));
    box.replaceChildren();
    if (!(meta && meta.scores_losers.includes(rules()))) return;
    box.append(el("p", "small", t("table.others_scores")));
    for (const n of names()) {
      if (n === $("t-winner").value) continue;
      const row = el("label", "row", n);
      const input = el("input");
      Object.assign(input, { type: "text", placeholder: t("table.score_example"), autocomplete: "off" });
      input.dataset.player = n;
      input.value = keep[n] || "";
      row.append(input);
      box.append(row);
    }
  }

  function showForm() {
    const hand = form.kind === "hand";
    const riichi = isRiichi();
    $("t-hand-form").hidden = !hand;
    $("t-draw-form").hidden = form.kind !== "draw";
    $("t-penalty-form").hidden = form.kind !== "penalty" && form.kind !== "chombo";
    $("t-riichi-box").hidden = !riichi || (form.kind !== "hand" && form.kind !== "draw");
    for (const e of document.querySelectorAll("#t-add .riichi-only")) if (e.id !== "t-riichi-box") e.hidden = !riichi;
    $("t-discarder-row").hidden = form.winBy !== "discard";
    const inf = $("t-infraction").value;
    const penalty = form.kind === "penalty";
    for (const id of ["t-infraction", "t-note"]) $(id).closest("label").hidden = !penalty;
    $("t-minutes-row").hidden = !penalty || inf !== "late";
    $("t-points-row").hidden = !penalty || !["referee", "obstruction", "disqualified"].includes(inf);
    $("t-source-row").hidden = !hand;
    $("t-typed-row").hidden = !hand || form.source !== "typed";
    const photo = hand && form.source === "photo";
    document.body.classList.toggle("table-photo", Boolean(table.setup) && photo);
    $("t-add-row").hidden = photo;
    $("t-add-row").textContent = hand ? t("table.add_hand") : form.kind === "draw" ? t("table.add_draw")
      : form.kind === "penalty" ? t("table.add_penalty") : t("table.add_chombo");
  }

  function situationCount() {
    $("t-flags-n").textContent = form.flags.size ? ` (${form.flags.size})` : "";
  }

  function photoChanged() {
    if (document.body.classList.contains("table-mode")) P.rescore();
  }

  // the context of the hand being read from a photo, for its own score on the page (the sheet's
  // settlement comes from the engine, with the winds and counters it keeps)
  function photoContext() {
    const winner = $("t-winner").value;
    const sys = system();
    const flags = [...form.flags].filter((f) => sys.flags.some((x) => x.name === f));
    if (isRiichi() && form.riichi.has(winner) && !flags.includes("double_riichi")) flags.push("riichi");
    const ctx = {
      win_by: form.winBy, seat_wind: windsNow()[winner] || "E", round_wind: next().round_wind || "E", flags,
    };
    if (isRiichi()) {
      ctx.dora_indicators = splitCodes($("t-dora").value);
      ctx.ura_dora_indicators = splitCodes($("t-ura").value);
      ctx.honba = Math.min(99, next().honba || 0);
    }
    return ctx;
  }

  // the form cannot make a row: say why, make none
  function refuse(text) {
    message(text);
    return null;
  }

  function handRow() {
    const winner = $("t-winner").value;
    if (!winner) return refuse(t("table.choose_winner"));
    const row = { winner, win_by: form.winBy };
    if (form.winBy === "discard") {
      row.discarder = $("t-discarder").value;
      if (!row.discarder || row.discarder === winner) return refuse(t("table.choose_discarder"));
    }
    if (form.flags.size) row.flags = [...form.flags];
    if (isRiichi()) {
      if (form.riichi.size) row.riichi = [...form.riichi];
      const dora = splitCodes($("t-dora").value), ura = splitCodes($("t-ura").value);
      if (dora.length) row.dora = dora;
      if (ura.length) row.ura = ura;
    }
    const others = {};
    for (const input of $("t-others").querySelectorAll("input")) {
      const v = input.value.trim();
      if (v) others[input.dataset.player] = /^-?\d+$/.test(v) ? parseInt(v, 10) : v;
    }
    if (Object.keys(others).length) row.others = others;
    return row;
  }

  function formRow() {
    if (form.kind === "hand") {
      const typed = $("t-typed").value.trim();
      if (!typed) return refuse(t("table.type_tiles"));
      const row = handRow();
      return row && { hand: typed, ...row };
    }
    if (form.kind === "draw") {
      const row = { kind: "draw", draw: isRiichi() ? form.draw : "exhaustive" };
      if (isRiichi()) {
        if (form.riichi.size) row.riichi = [...form.riichi];
        if (form.tenpai.size && form.draw === "exhaustive") row.tenpai = [...form.tenpai];
      }
      return row;
    }
    const player = $("t-pplayer").value;
    if (form.kind === "chombo") return { chombo: player };
    const row = { penalty: $("t-infraction").value, player };
    const minutes = $("t-minutes").value.trim(), points = $("t-points").value.trim(), note = $("t-note").value.trim();
    if (!$("t-minutes-row").hidden && minutes) row.minutes = parseInt(minutes, 10);
    if (!$("t-points-row").hidden && points) row.points = parseInt(points, 10);
    if (note) row.note = note;
    return row;
  }

  // after a row is added: nothing of it is kept for the next (the winner and the discarder are
  // chosen again: a hand credited to the last row's winner was a wrong row on the sheet)
  function resetForm() {
    $("t-winner").value = "";
    $("t-discarder").value = "";
    form.flags.clear();
    form.riichi.clear();
    form.tenpai.clear();
    for (const id of ["t-typed", "t-dora", "t-ura", "t-minutes", "t-points", "t-note"]) $(id).value = "";
    for (const input of $("t-others").querySelectorAll("input")) input.value = "";
  }

  function added(sheet) {
    const line = sheet.lines[sheet.lines.length - 1];
    resetForm();
    buildForm();
    if (line && line.status === "error") {
      message(t("table.row_not_scored", { n: sheet.lines.length, notes: line.notes.join("; ") }));
    }
    $("t-sheet").closest(".card").scrollIntoView({ block: "start" });
  }

  function addFromForm() {
    const row = formRow();
    if (row) commit(table.setup, [...table.rows, row], table.thumbs, added);
  }

  function addFromPhoto() {
    const reading = P.reading();
    const row = reading ? handRow() : refuse(t("table.photo_first"));
    if (!row) return;
    const n = table.photos + 1;
    const file = (P.state.fileName || "photo.jpg").replace(/[^A-Za-z0-9._-]+/g, "_").slice(-40);
    const photo = `${n}-${file}`;
    const thumbs = { ...table.thumbs };
    const thumb = P.thumbnail();
    if (thumb) thumbs[photo] = thumb;
    commit(table.setup, [...table.rows, { photo, reading, ...row }], thumbs, (sheet) => {
      table.photos = n;
      save();
      P.clearResult();
      added(sheet);
    });
  }

  // ---------------------------------------------------------------------------------------------
  // the sheet, as the engine returned it
  // ---------------------------------------------------------------------------------------------
  const fmt = (v) => (typeof v === "number" && v > 0 ? `+${v}` : String(v));

  function lineTitle(line) {
    if (line.kind === "penalty") return `${t("table.kind_penalty")} · ${line.notes[0] || ""}`;
    if (line.kind === "chombo") return "Chombo";
    if (line.kind === "draw") return line.goulash ? t("table.goulash") : t("table.kind_draw");
    const how = line.win_by === "self_draw" ? t("table.self_drawn")
      : line.discarder ? t("table.on_discard", { player: line.discarder }) : "";
    if (line.status === "confirm") return `${line.winner} · ${t("table.photo_to_confirm")}`;
    if (line.status === "error") return `${line.winner} · ${t("table.not_scored")}`;
    if (line.status === "void" && line.settled_by === "penalty") {
      return t("table.invalid_win_penalty", { winner: line.winner });
    }
    if (line.status === "void") return t("table.invalid_win", { winner: line.winner });
    const unit = window.mahjongMessages.has(`unit.${line.unit}`) ? t(`unit.${line.unit}`) : line.unit;
    return [line.winner, `${line.value} ${unit}`, how].filter(Boolean).join(" · ");
  }

  function removeButton(i) {
    const b = el("button", "link danger", t("table.remove"));
    b.type = "button";
    b.dataset.action = "remove";
    b.addEventListener("click", () => {
      if (b.dataset.armed !== "true") { // a second tap removes: no dialog to dismiss by mistake
        b.dataset.armed = "true";
        b.textContent = t("table.tap_again_remove");
        return;
      }
      const rows = table.rows.filter((_, j) => j !== i);
      const gone = table.rows[i];
      const thumbs = { ...table.thumbs };
      if (gone && gone.photo) delete thumbs[gone.photo];
      commit(table.setup, rows, thumbs);
    });
    return b;
  }

  function drawSheet() {
    const sheet = table.sheet;
    const who = names();
    const winds = windsNow();
    const grid = $("t-sheet");
    grid.replaceChildren();
    const head = el("tr");
    head.append(el("th", "lbl", "#"));
    for (const n of who) {
      const th = el("th", "", n);
      th.append(el("small", "", winds[n] ? seatLetter(winds[n]) : ""));
      head.append(th);
    }
    const thead = el("thead");
    thead.append(head);
    const body = el("tbody");
    (sheet ? sheet.lines : []).forEach((line, i) => {
      const top = el("tr", `what ${line.status}`);
      top.dataset.row = String(i);
      top.dataset.status = line.status;
      const lbl = el("td", "lbl", line.kind === "penalty" ? "P" : line.label);
      lbl.rowSpan = 2;
      const what = el("td", "text");
      what.colSpan = who.length;
      what.append(el("b", "", lineTitle(line)));
      if (line.hand) what.append(el("code", "", line.hand));
      const thumb = line.photo && table.thumbs[line.photo];
      if (thumb) {
        const img = el("img", "thumb");
        img.src = thumb;
        img.alt = t("table.photo_alt");
        what.append(img);
      }
      const notes = line.kind === "penalty" ? line.notes.slice(1) : line.notes;
      for (const n of notes) what.append(el("span", line.status === "scored" || line.status === "draw" ? "note" : "note bad", n));
      const actions = el("span", "actions");
      if (line.status === "confirm") {
        const ok = el("button", "button small-button", t("table.confirm_reading"));
        ok.type = "button";
        ok.dataset.action = "confirm";
        ok.addEventListener("click", () => {
          const rows = table.rows.map((r, j) => (j === i ? { ...r, confirmed: true } : r));
          commit(table.setup, rows, table.thumbs);
        });
        actions.append(ok);
      }
      actions.append(removeButton(i));
      what.append(actions);
      top.append(lbl, what);
      const nums = el("tr", `nums ${line.status}`);
      for (const n of who) {
        const d = line.deltas[n] || 0;
        const td = el("td", "n");
        td.append(el("span", d > 0 ? "d plus" : d < 0 ? "d minus" : "d", fmt(d)), el("span", "t", String(line.totals[n] ?? "")));
        nums.append(td);
      }
      body.append(top, nums);
    });
    const foot = el("tfoot");
    if (sheet) {
      const rows = [[sheet.rules === "zung-jung" ? "TOTALE GENERALE" : t("table.total"), sheet.totals, "totals"]];
      const sticks = sheet.closing.leftover_sticks;
      if (sticks) { // riichi: the sticks left at the end, and who took them (seed 001 §3.6)
        const to = sheet.closing.leftover_sticks_to;
        const label = to ? t("table.sticks_to", { n: sticks, player: to }) : t("table.sticks_unassigned", { n: sticks });
        rows.push([label, Object.fromEntries(who.map((n) => [n, n === to ? `+${1000 * sticks}` : ""])), "leftover_sticks"]);
      }
      for (const [key, label] of CLOSING) {
        const v = sheet.closing[key];
        if (v && typeof v === "object" && key !== "totals") rows.push([t(label), v, key]);
      }
      for (const [label, values, key] of rows) {
        const tr = el("tr", "closing");
        tr.dataset.key = key;
        tr.append(el("td", "lbl", label));
        for (const n of who) {
          const td = el("td", "n", String(values[n] ?? ""));
          td.dataset.player = n;
          tr.append(td);
        }
        foot.append(tr);
      }
    }
    grid.append(thead, body, foot);
    const pending = $("t-pending");
    pending.hidden = !sheet || sheet.complete;
    if (sheet && !sheet.complete) {
      pending.textContent = t("table.pending", { n: sheet.pending.length });
    }
  }

  function render() {
    const on = Boolean(table.setup);
    $("t-setup").hidden = on;
    $("t-board").hidden = !on;
    $("t-tail").hidden = !on;
    if (!on) {
      document.body.classList.remove("table-photo");
      return;
    }
    const s = table.setup;
    const title = [s.tournament, s.session && t("table.session_n", { n: s.session }), s.table && t("table.table_n", { n: s.table })]
      .filter(Boolean).join(" · ");
    $("t-title").textContent = `${title || t("mode.table")} · ${system().label.split(" (")[0]}`;
    const n = next();
    let text = n.over ? t("table.over")
      : t("table.next", { label: n.label || "1" }) + " · " + names().map((p) => `${p} ${seatLetter(windsNow()[p])}`).join(", ");
    if (isRiichi() && !n.over) text += " · " + t("table.counters", { honba: n.honba || 0, sticks: n.sticks || 0 });
    if (n.goulash) text += " · Goulash";
    $("t-next").textContent = text;
    $("t-exported").textContent = table.exported || "";
    drawSheet();
    buildForm();
  }

  // ---------------------------------------------------------------------------------------------
  function setMode(mode) {
    const on = mode === "table";
    document.body.classList.toggle("table-mode", on);
    $("mode-hand").setAttribute("aria-pressed", String(!on));
    $("mode-table").setAttribute("aria-pressed", String(on));
    try { localStorage.setItem(MODE, mode); } catch (e) { /* ignore */ }
    Object.assign(P.hooks, on ? { rules, options: () => ({ ...((table.setup && table.setup.options) || {}) }), context: photoContext }
      : { rules: null, options: null, context: null });
    P.clearResult();
    if (on) render();
    else document.body.classList.remove("table-photo");
  }

  async function start() {
    P = window.mahjongPage;
    ({ $, el } = P);
    try {
      const r = await fetch("/api/session/meta");
      meta = await r.json();
      if (!r.ok || !meta.infractions) throw new Error(meta.error || `status ${r.status}`);
    } catch (e) {
      meta = null;
    }
    load();
    buildSetup();
    $("mode-hand").addEventListener("click", () => setMode("hand"));
    $("mode-table").addEventListener("click", () => setMode("table"));
    $("t-add-row").addEventListener("click", addFromForm);
    $("t-add-photo").addEventListener("click", addFromPhoto);
    $("t-winner").addEventListener("change", () => { playerSelect("t-discarder", $("t-winner").value, t("table.who_discarded")); buildOthers(); photoChanged(); });
    $("t-infraction").addEventListener("change", showForm);
    document.addEventListener("mahjong:lang", () => {
      labelSetup();
      if (table.setup) commit(table.setup, table.rows, table.thumbs);
    });
    for (const id of ["t-dora", "t-ura"]) $(id).addEventListener("change", photoChanged);
    for (const b of $("t-tail").querySelectorAll("[data-format]")) b.addEventListener("click", () => exportSheet(b.dataset.format));
    $("t-new").addEventListener("click", () => {
      const b = $("t-new");
      if (b.dataset.armed !== "true") {
        b.dataset.armed = "true";
        b.textContent = table.exported ? t("table.tap_again_new") : t("table.not_exported");
        return;
      }
      b.dataset.armed = "false";
      b.textContent = t("table.new");
      Object.assign(table, { setup: null, rows: [], thumbs: {}, sheet: null, photos: 0, exported: "" });
      try { localStorage.removeItem(STORE); } catch (e) { /* ignore */ }
      resetForm();
      P.clearResult();
      render();
    });
    let mode = "hand";
    try { mode = localStorage.getItem(MODE) || "hand"; } catch (e) { /* ignore */ }
    setMode(mode);
    if (table.setup) await commit(table.setup, table.rows, table.thumbs); // the engine's sheet again
    document.body.dataset.tableReady = "true";
  }

  if (document.body.dataset.ready === "true") start();
  else document.addEventListener("mahjong:ready", start, { once: true });
})();
