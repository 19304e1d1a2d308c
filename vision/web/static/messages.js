// The page's words: every sentence the page shows has a key, and GET /api/messages?lang=… gives
// them all in the page's language (vision/web/messages.json, the one table of the page's English;
// the Italian is the project's gettext catalog, scoring/locale). The scripts hold keys, never
// sentences: app.js fetches the table when the language is chosen and hands it to use(), and
// t(key, {name}) then gives the sentence with its {fields} filled in.
//
// The server never sends a sentence for the page to show: it sends a problem *kind* with its facts
// (vision/render/notices.py), and the page words it here, in the player's terms (what to tap, what
// to photograph again), never a command-line flag or an internal field name.
"use strict";

(() => {
  // key → sentence in the page's language (empty until the first table arrives)
  let table = {};
  function use(messages) {
    table = messages || {};
  }

  // whether the table words `key` (a notice kind the page does not know falls back to a general one)
  function has(key) {
    return Object.prototype.hasOwnProperty.call(table, key);
  }

  // t("notice.incomplete", {have: 13, need: 14}): the sentence in the page's language, its facts filled in
  function t(key, params) {
    const text = has(key) ? table[key] : key;
    return text.replace(/\{(\w+)\}/g, (_, name) => (params && params[name] !== undefined ? String(params[name]) : ""));
  }

  // one letter per wind in the page's language (E S W N; Italian E S O N): seats, payments, sheets
  function seat(letter) {
    return has(`seat.${letter}`) ? table[`seat.${letter}`] : letter;
  }

  window.mahjongMessages = { t, use, has, seat };
})();
