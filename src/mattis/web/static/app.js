/* The Mattis web table: lobby, join form and the table itself.
   The server sends this seat's view only; the page never knows more. */
"use strict";
(() => {
  let STR = { en: {}, nb: {} };
  let lang = localStorage.getItem("mattis.lang") || ((navigator.language || "").match(/^(nb|no|nn)/) ? "nb" : "en");
  const app = document.getElementById("app");
  let view = null, ws = null, selected = new Set(), showLast = false, retry = 0, sentSeq = null, tableId = null;
  // Seeing the game: the last trick stays in view for a moment ("pace"), the turn is in the title.
  let held = null, heldUntil = 0, heldTimer = null, lastTrickKey = null, wasMyTurn = false;
  let panel = null;  // an overlay on the table: "rules", "howto", "replay", "analysis", "confirm-end", "confirm-rematch"
  let reinvite = null, replayData = null, replayAt = 0, replayTimer = null, analysisData = null, analysisWait = null, analysisAsk = 0, analysisDeeper = {};
  let unsent = null;  // a move clicked while the connection was down: re-sent on reconnect if still current
  // The hint (mattis.lab.hint, worked out by the server or the offline app's worker from this seat's view):
  // asked for this position ({game, seq}) and, once it came, the move, its cards and the sentence.
  let hintAsked = null, hintShown = null;
  // A touch screen (a phone, a tablet): no key hints on buttons; a narrow one docks the hand at the bottom.
  const touch = () => window.matchMedia("(pointer: coarse)").matches || window.matchMedia("(hover: none)").matches;
  const narrow = () => window.matchMedia("(max-width: 600px)").matches;
  const keyHint = (k) => (touch() ? "" : " (" + k + ")");
  // The turn clock: the server sends the seconds left with each frame, the page counts down from
  // when the frame came.  The heartbeat: a ping every view.heartbeat seconds; a page that hears
  // nothing (not even a pong) for 3 beats takes its network as dead and connects again.
  let timerEnd = 0, bankEnd = 0, timerTick = null, pingTimer = null, lastHeard = 0, nudge = null, nudged = null;
  const num = (v) => (lang === "nb" ? String(v).replace(".", ",") : String(v));  // 1,5 sek
  const pace = () => { const v = parseFloat(localStorage.getItem("mattis.pace")); return isNaN(v) ? 1.5 : v; };

  // The catalogue's words (i18n.json is generated from mattis.core.catalogue); named {fields}.
  function t(key, params) {
    let s = (STR[lang] && STR[lang][key]) || STR.en[key] || key;
    for (const k in params || {}) s = s.split("{" + k + "}").join(String(params[k]));
    return s;
  }
  function h(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      const v = attrs[k];
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false)
      e.appendChild(typeof kid === "string" ? document.createTextNode(kid) : kid);
    return e;
  }
  function applyStatic() {
    document.documentElement.lang = lang === "nb" ? "nb" : "en";
    document.querySelectorAll("[data-t]").forEach((e) => { e.textContent = t(e.dataset.t); });
    const b = document.getElementById("lang");
    b.textContent = lang === "nb" ? "English" : "Norsk";
    b.setAttribute("aria-label", t("web.switch_lang"));
  }
  document.addEventListener("click", (e) => {  // any click on a greyed table: said not sent
    if (document.body.classList.contains("offline") && app.contains(e.target)) setConn(unsent ? "web.not_sent_move" : "web.not_sent");
  }, true);
  document.getElementById("lang").addEventListener("click", () => {
    lang = lang === "nb" ? "en" : "nb";
    localStorage.setItem("mattis.lang", lang);
    hintShown = null;  // said in the other language: asked again in this one
    applyStatic();
    if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "lang", lang }));
    else route();
  });
  function setConn(key) { document.getElementById("conn").textContent = key ? t(key) : ""; }
  // While the connection is down the table is greyed (body.offline) and a click is "not sent".
  function setOffline(off) { document.body.classList.toggle("offline", off); document.body.dataset.offline = off ? "1" : "0"; }

  async function api(path, body) {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(Object.assign({ lang }, body)) });
    const data = await r.json().catch(() => ({ error: t("web.bad_reply") }));
    if (!r.ok) throw new Error(data.error || t("web.bad_reply"));
    return data;
  }
  const seatKey = (tid) => "mattis.seat." + tid;
  function stored(tid) { try { return JSON.parse(localStorage.getItem(seatKey(tid))); } catch (e) { return null; } }
  function remember(tid, token, seat, rules) {
    const old = stored(tid) || {};
    localStorage.setItem(seatKey(tid), JSON.stringify({ token, seat: seat === undefined ? old.seat : seat,
      rules: rules || old.rules || "", at: old.at || Date.now() }));
  }
  function myTables() {
    const out = [];
    for (let k = 0; k < localStorage.length; k++) {
      const key = localStorage.key(k);
      if (!key || !key.startsWith("mattis.seat.")) continue;
      const v = stored(key.slice(12));
      if (v && v.token) out.push(Object.assign({ tid: key.slice(12) }, v));
    }
    return out.sort((a, b) => (b.at || 0) - (a.at || 0));
  }
  // A <details> that stays open or closed as the player left it, across the re-renders of each move.
  const detailsOpen = {};
  function details(id, cls, openByDefault, ...kids) {
    const key = id + (id === "host-tools" && view ? ":" + view.status : "");  // open in the lobby, closed in a game
    const open = key in detailsOpen ? detailsOpen[key] : openByDefault;
    return h("details", { id, class: cls, open, ontoggle: (e) => { detailsOpen[key] = e.target.open; } }, ...kids);
  }
  const qrShown = new Set(), qrSvg = {};
  const resumeLink = (tid, token) => location.origin + "/t/" + tid + "#seat=" + encodeURIComponent(token);
  // A link with copy, share and QR buttons (the QR is drawn by the server from the link).
  function linkBox(id, label, link, hint) {
    const input = h("input", { id, readonly: true, value: link, onfocus: (e) => e.target.select() });
    const qrBox = h("div", { class: "qr", id: id + "-qr" });
    const copied = h("span", { class: "hint", "aria-live": "polite" });
    const copy = h("button", { type: "button", class: "small", id: id + "-copy", text: t("web.copy"), onclick: async () => {
      try { await navigator.clipboard.writeText(link); } catch (e) { input.select(); document.execCommand("copy"); }
      copied.textContent = t("web.copied");
    } });
    const share = navigator.share ? h("button", { type: "button", class: "small", text: t("web.share"),
      onclick: () => navigator.share({ url: link }).catch(() => {}) }) : null;
    const showQr = () => qrBox.replaceChildren(h("img", { alt: t("web.show_qr"), width: 180, height: 180,
      src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(qrSvg[link]) }));
    const qr = h("button", { type: "button", class: "small", id: id + "-qrbtn", text: t("web.show_qr"), onclick: async () => {
      if (qrShown.has(id)) { qrShown.delete(id); qrBox.replaceChildren(); return; }
      try {
        if (!qrSvg[link]) qrSvg[link] = (await api("/api/qr", { text: link })).svg;
        qrShown.add(id);
        showQr();
      } catch (e) { qrBox.textContent = e.message; }
    } });
    if (qrShown.has(id) && qrSvg[link]) showQr();  // still shown after a re-render
    return h("div", { class: "linkbox" }, h("label", {}, label, input),
      h("div", { class: "row" }, copy, share, qr, copied), hint ? h("p", { class: "hint", text: hint }) : null, qrBox);
  }

  // ------------------------------------------------------------------ lobby
  let meta = null;
  async function loadMeta() { if (!meta) meta = await (await fetch("/api/meta")).json(); return meta; }
  async function lobby() {
    await loadMeta();
    app.replaceChildren();
    const presetSel = h("select", { id: "preset", name: "preset" },
      Object.keys(meta.presets).map((p) => h("option", { value: p, text: p })));
    const players = h("select", { id: "players", name: "players" });
    const seatsBox = h("div", { id: "seats-cfg", class: "seats-cfg" });
    const doc = h("p", { class: "hint", id: "preset-doc" });
    function levelSel(id) {
      return h("select", { id, "aria-label": t("web.level") },
        meta.levels.map((l) => h("option", { value: l, text: t("level." + l), selected: l === meta.default_level })));
    }
    function drawSeats() {
      seatsBox.replaceChildren();
      const n = +players.value;
      for (let i = 1; i < n; i++) {
        const kind = h("select", { id: "seat-kind-" + i, "aria-label": t("web.seat_n", { n: i + 1 }) },
          h("option", { value: "human", text: t("web.seat_friend") }), h("option", { value: "bot", text: t("web.seat_bot") }));
        seatsBox.appendChild(h("div", { class: "row" }, h("span", { text: t("web.seat_n", { n: i + 1 }) }), kind, levelSel("seat-level-" + i)));
      }
    }
    function drawPlayers() {
      const [lo, hi] = meta.presets[presetSel.value].players;
      const keep = +players.value || 3;
      players.replaceChildren(...Array.from({ length: hi - lo + 1 }, (_, k) => lo + k)
        .map((n) => h("option", { value: n, text: String(n), selected: n === Math.min(hi, Math.max(lo, keep)) })));
      doc.textContent = t("rules.preset." + presetSel.value);
      drawSeats();
      drawHouse();
    }
    presetSel.addEventListener("change", drawPlayers);
    players.addEventListener("change", drawSeats);
    const name = h("input", { id: "name", name: "name", maxlength: 24, required: true, autocomplete: "nickname",
      value: localStorage.getItem("mattis.name") || "" });
    // House rules: one choice per option, each value in words; the preset's own value is marked.
    const house = h("div", { class: "house", id: "house" });
    function drawHouse() {
      const pre = meta.presets[presetSel.value];
      house.replaceChildren(h("p", { class: "hint", text: t("web.house_rules_hint", { name: presetSel.value }) }),
        ...meta.options.map((o) => h("label", { class: "opt" }, o.label[lang] || o.label.en,
          h("select", { id: "opt-" + o.option, "data-option": o.option }, o.values.map((v, k) => {
            const words = v.text[lang] || v.text.en;
            const usual = v.value === pre.values[o.option];
            return h("option", { value: String(k), selected: usual,
              text: usual ? t("web.usual", { value: words, name: presetSel.value }) : words });
          })))));
    }
    function chosenOverrides() {
      const pre = meta.presets[presetSel.value], ov = {};
      for (const o of meta.options) {
        const sel = document.getElementById("opt-" + o.option);
        const v = sel ? o.values[+sel.value].value : pre.values[o.option];
        if (v !== pre.values[o.option]) ov[o.option] = v;
      }
      return ov;
    }
    const houseBox = h("details", { class: "housebox", id: "house-rules" }, h("summary", { text: t("web.overrides") }), house);
    const grace = h("select", { id: "grace", name: "grace" }, meta.grace.choices.map((g) => h("option", {
      value: g === null ? "never" : String(g), selected: g === meta.grace.default,
      text: g === null ? t("web.grace_never") : t("web.grace_n", { n: g }) })));
    const clockText = (c) => (c === null ? t("web.clock_off") : c >= 120 && c % 60 === 0 ? t("web.clock_min", { n: c / 60 }) : t("web.clock_s", { n: c }));
    const clock = h("select", { id: "clock", name: "clock" }, (meta.clock ? meta.clock.choices : [null]).map((c) => h("option", {
      value: c === null ? "off" : String(c), selected: c === (meta.clock ? meta.clock.default : null), text: clockText(c) })));
    const bank = h("select", { id: "bank", name: "bank" }, (meta.bank ? meta.bank.choices : [null]).map((b) => h("option", {
      value: b === null ? "none" : String(b), selected: b === null, text: b === null ? t("web.bank_none") : t("web.bank_s", { n: b }) })));
    const bankOn = () => { bank.disabled = clock.value === "off"; };  // a time bank goes with a turn clock
    clock.addEventListener("change", bankOn); bankOn();
    const err = h("p", { class: "error", role: "alert", id: "error" });
    const form = h("form", { class: "panel lobby", onsubmit: async (ev) => {
      ev.preventDefault();
      err.textContent = "";
      const ov = chosenOverrides();
      const n = +players.value;
      const seats = [{ kind: "human" }];
      for (let i = 1; i < n; i++) seats.push({ kind: document.getElementById("seat-kind-" + i).value,
        level: document.getElementById("seat-level-" + i).value });
      try {
        localStorage.setItem("mattis.name", name.value);
        const body = { preset: presetSel.value, players: n, overrides: ov, seats, name: name.value,
          grace: grace.value === "never" ? null : +grace.value, clock: clock.value === "off" ? null : +clock.value,
          bank: clock.value === "off" || bank.value === "none" ? null : +bank.value };
        const q = new URLSearchParams(location.search);
        if (q.get("seed")) body.seed = +q.get("seed");  // honoured only by test servers
        if (q.get("grace")) body.grace = +q.get("grace");  // a grace period not in the list (tests: 1 s)
        const r = await api("/api/tables", body);
        remember(r.table, r.token, r.seat, presetSel.value);
        history.pushState(null, "", "/t/" + r.table);
        route();
      } catch (e) { err.textContent = e.message; }
    } },
      h("h2", { text: t("web.new_table") }),
      h("label", {}, t("web.your_name"), name),
      h("label", {}, t("label.rules"), presetSel), doc,
      h("label", {}, t("label.players"), players),
      seatsBox,
      h("label", {}, t("web.grace"), grace),
      h("label", {}, t("web.clock"), clock), h("p", { class: "hint", id: "clock-hint", text: t("web.clock_hint") }),
      h("label", {}, t("web.bank"), bank), h("p", { class: "hint", id: "bank-hint", text: t("web.bank_hint") }),
      houseBox,
      h("button", { type: "submit", id: "create", class: "primary", text: t("web.create") }), err);
    const mine = myTables();
    if (mine.length) app.appendChild(h("section", { class: "panel mytables", id: "my-tables" }, h("h2", { text: t("web.my_tables") }),
      h("ul", {}, mine.map((m) => h("li", {}, h("a", { href: "/t/" + m.tid, text: t("web.my_table", {
        rules: m.rules || m.tid, seat: (m.seat === undefined || m.seat === null ? "?" : m.seat + 1),
        when: m.at ? new Date(m.at).toLocaleDateString(lang === "nb" ? "nb-NO" : "en-GB") : "" }) }), " ",
        h("button", { type: "button", class: "small", text: t("web.forget"), onclick: () => { localStorage.removeItem(seatKey(m.tid)); lobby(); } }))))));
    app.appendChild(form);
    app.appendChild(h("section", { class: "panel about" }, h("h2", { text: t("web.about_title") }), h("p", { text: t("web.about") })));
    drawPlayers();
  }

  function joinForm(tid, invite) {
    app.replaceChildren();
    const name = h("input", { id: "name", maxlength: 24, required: true, value: localStorage.getItem("mattis.name") || "" });
    const err = h("p", { class: "error", role: "alert", id: "error" });
    app.appendChild(h("form", { class: "panel lobby", onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        localStorage.setItem("mattis.name", name.value);
        const r = await api("/api/tables/" + tid + "/join", { invite, name: name.value });
        remember(tid, r.token, r.seat);
        history.replaceState(null, "", "/t/" + tid);
        route();
      } catch (e) { err.textContent = e.message; }
    } }, h("h2", { text: t("web.join_title") }), h("label", {}, t("web.your_name"), name),
      h("button", { type: "submit", id: "join", class: "primary", text: t("web.join") }),
      h("a", { href: "/t/" + tid + "?watch=1", text: t("web.watch_instead") }), err,
      h("p", { class: "hint", id: "seat-hint", text: t("web.have_seat_hint") })));
    name.focus();
  }

  // ---------------------------------------------------------------- connect
  function connect(tid, token) {
    if (ws) { ws.onclose = null; ws.close(); }
    if (tableId !== tid) { lastTrickKey = null; held = null; chatSeen = 0; }
    tableId = tid;
    if (!meta) loadMeta().then(() => { if (view) render(); }).catch(() => { /* no reactions bar: the table works */ });
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = window.MattisTransport ? window.MattisTransport.connect(tid) : new WebSocket(proto + "//" + location.host + "/ws/" + tid);  // the offline app: a Web Worker (solo.js)
    setConn(unsent ? "web.not_sent_move" : "web.connecting");  // a move not sent stays said until it is
    ws.onopen = () => { retry = 0; setConn(""); setOffline(false); lastHeard = Date.now(); ws.send(JSON.stringify({ type: "hello", token: token || undefined, lang })); };
    ws.onmessage = (m) => {
      lastHeard = Date.now();
      const msg = JSON.parse(m.data);
      if (msg.type === "pong") return;
      if (msg.type === "refused") {
        const sock = ws;
        sock.onclose = (e) => showRefused(msg.error, tid, e.code);
        return;
      }
      if (view && (msg.game !== view.game || msg.seq !== view.seq)) { selected.clear(); showLast = false; }
      if (msg.reinvite) reinvite = { seat: msg.reinvite.seat, link: resumeLink(tid, msg.reinvite.token) };
      if (view && (msg.game !== view.game || msg.seq !== view.seq)) { nudge = null; nudged = null; hintAsked = null; hintShown = null; }
      if (msg.error) hintAsked = null;  // refused (or any refusal): the button is free again
      if (msg.hint && msg.hint.game === msg.game && msg.hint.seq === msg.seq) {
        hintAsked = null; hintShown = msg.hint;
        if (msg.hint.cards.length > 1) selected = new Set(msg.hint.cards);  // a sequence: chosen, so "play" plays it
      }
      if (msg.nudge) { nudge = msg.nudge; buzz(); }
      if (msg.reaction && msg.reaction.n > lastReaction) {
        const r = msg.reaction;
        lastReaction = r.n;
        reactions[r.seat] = r;
        setTimeout(() => { if (reactions[r.seat] === r) { delete reactions[r.seat]; render(); } }, 4000);
      }
      if (msg.nudged !== undefined && msg.nudged !== null) nudged = msg.nudged;
      timerEnd = msg.timer && !msg.timer.paused ? Date.now() + msg.timer.left * 1000 : 0;
      bankEnd = timerEnd && msg.timer.bank ? timerEnd + msg.timer.bank * 1000 : timerEnd;
      heartbeat(msg.heartbeat);
      chatFrame(msg);
      noteTrick(msg);
      view = msg;
      sentSeq = null;
      if (unsent) {  // the click made while the connection was down: sent now if the table has not moved on
        const u = unsent;
        unsent = null;
        if (u.game === msg.game && u.seq === msg.seq && msg.obs && msg.obs.to_act === msg.you) {
          sentSeq = u.seq;
          send(u);
          setConn("web.resent");
        } else setConn("web.not_sent_released");
      }
      if (view.you !== null && view.you !== undefined) remember(tid, token, view.you, view.rules_name);
      render();
    };
    ws.onclose = () => {
      clearInterval(pingTimer); pingTimer = null;
      hintAsked = null;  // its answer went with the connection: the button is free again
      setConn(unsent ? "web.not_sent_move" : "web.reconnecting");
      setOffline(true);
      retry = Math.min(retry + 1, 6);
      setTimeout(() => connect(tid, token), 300 * retry);
    };
  }
  // Ping every beat; nothing heard for 3 beats: the network is dead, connect again (said, greyed).
  function heartbeat(seconds) {
    if (!seconds || pingTimer) return;
    const sock = ws;
    pingTimer = setInterval(() => {
      if (sock !== ws || sock.readyState !== 1) { clearInterval(pingTimer); pingTimer = null; return; }
      if (Date.now() - lastHeard > 3 * seconds * 1000 + 500) {
        clearInterval(pingTimer); pingTimer = null;
        const onclose = sock.onclose;
        sock.onclose = null;
        try { sock.close(); } catch (e) { /* closing a dead socket */ }
        if (onclose) onclose();
        return;
      }
      try { sock.send('{"type":"ping"}'); } catch (e) { /* the close handler reconnects */ }
    }, seconds * 1000);
  }
  // A nudge from the host: seen (a banner), felt (vibration) and heard (a short beep, if the page may play sound).
  function buzz() {
    if (navigator.vibrate) { try { navigator.vibrate([150, 80, 150]); } catch (e) { /* not allowed */ } }
    tone(880);
  }
  function tone(freq) {
    try {
      const A = window.AudioContext || window.webkitAudioContext;
      if (!A) return;
      const ctx = new A(), o = ctx.createOscillator(), g = ctx.createGain();
      o.frequency.value = freq; g.gain.value = 0.08;
      o.connect(g); g.connect(ctx.destination);
      o.start(); o.stop(ctx.currentTime + 0.18);
      o.onended = () => ctx.close();
    } catch (e) { /* no sound: the page says it in words */ }
  }
  // Sounds (off unless the player turns them on, kept by the browser): her turn, a trick taken.
  const soundOn = () => localStorage.getItem("mattis.sound") === "1";
  // Quick reactions: a few emotes from the server's list, shown by the seat for a few seconds.
  const reactions = {};  // seat -> { emote, n }
  let lastReaction = 0;
  // The countdown of the player to act, from the frame's seconds left.
  function timerText() {
    const tm = view && view.timer;
    if (!tm) return "";
    const s = tm.paused ? Math.ceil(tm.left) : Math.max(0, Math.ceil((timerEnd - Date.now()) / 1000));
    const who = name(tm.seat);
    // At a table with a time bank (tm.bank): the clock first, then the bank counts down.
    const b = tm.bank === undefined ? 0 : tm.paused ? Math.ceil(tm.bank) : Math.max(0, Math.ceil((bankEnd - Math.max(Date.now(), timerEnd)) / 1000));
    if (tm.kind === "clock" && s === 0 && b > 0) {
      const text = tm.seat === view.you ? t("web.timer.bank_you", { s: b }) : t("web.timer.bank", { name: who, s: b });
      return tm.paused ? text + " " + t("web.timer.paused") : text;
    }
    let text = tm.kind === "clock" ? (tm.seat === view.you ? t("web.timer.clock_you", { s }) : t("web.timer.clock", { name: who, s }))
      : tm.kind === "grace" ? t("web.timer.grace", { name: who, s }) : t("web.timer.host", { s });
    if (tm.kind === "clock" && b > 0) text += " " + t("web.timer.bank_after", { s: b });
    return tm.paused ? text + " " + t("web.timer.paused") : text;
  }
  // The countdown is in the bar at the top and, on her own turn with a turn clock, by her hand (#hand-timer).
  function tickTimer() {
    for (const id of ["timer", "hand-timer"]) {
      const el = document.getElementById(id);
      if (!el) continue;
      el.textContent = timerText(); el.dataset.left = view && view.timer ? el.textContent.match(/\d+/)[0] : "";
      if (view && view.timer && view.timer.bank !== undefined) el.dataset.bank = String(Math.max(0, Math.ceil((bankEnd - Math.max(Date.now(), timerEnd)) / 1000)));
    }
  }
  // The table's chat (mattis.web.chat): behind the header's button, which counts the lines not yet seen; the
  // panel lies over the page (on a phone, the whole screen) and is an element of its own, so the table's
  // re-renders never touch what is being typed.  Every name and line is text (textContent, never HTML).
  let chatOpen = false, chatSeen = 0, chatLast = 0;
  const chatSeenKey = () => "mattis.chatseen." + tableId;
  const chatBtn = h("button", { type: "button", class: "small chatbtn", id: "chat-btn", hidden: true, "aria-expanded": "false",
    "aria-controls": "chat", onclick: () => toggleChat() });
  const chatList = h("ol", { class: "chatlines", id: "chat-lines", "aria-live": "polite" });
  const chatInput = h("input", { id: "chat-input", type: "text", autocomplete: "off", enterkeyhint: "send" });
  const chatSend = h("button", { type: "submit", class: "primary small", id: "chat-send" });
  const chatNote = h("p", { class: "hint", id: "chat-note" });
  const chatErr = h("p", { class: "error", role: "alert", id: "chat-error" });
  const chatMutes = h("div", { class: "chatmutes", id: "chat-mutes" });
  const chatTitle = h("h2", { id: "chat-title" });
  const chatClose = h("button", { type: "button", class: "small", id: "chat-close", text: "✕", onclick: () => toggleChat(false) });
  const chatBox = h("section", { class: "chat", id: "chat", hidden: true, role: "dialog", "aria-labelledby": "chat-title",
    onkeydown: (e) => { if (e.key === "Escape") { toggleChat(false); chatBtn.focus(); } } },
    h("div", { class: "chathead" }, chatTitle, chatClose), chatList, chatErr, chatNote,
    h("form", { class: "chatform", onsubmit: (e) => {
      e.preventDefault();
      const text = chatInput.value.trim();
      if (!text) return;
      chatErr.textContent = "";
      if (send({ type: "chat", text })) chatInput.value = "";
    } }, chatInput, chatSend), chatMutes);
  document.body.appendChild(chatBox);
  document.getElementById("top").insertBefore(chatBtn, document.getElementById("lang"));
  function hideChat() { chatOpen = false; chatBtn.hidden = true; chatBox.hidden = true; }
  function toggleChat(open) {
    chatOpen = open === undefined ? !chatOpen : open;
    chatBox.hidden = !chatOpen;
    chatBtn.setAttribute("aria-expanded", chatOpen ? "true" : "false");
    if (chatOpen) { chatErr.textContent = ""; chatInput.focus(); }
    renderChat();
    chatList.scrollTop = chatList.scrollHeight;
  }
  function chatFrame(msg) {
    if (!msg.chat || msg.solo) { hideChat(); return; }  // the offline app: no one else to talk to
    if (msg.error && chatOpen) chatErr.textContent = msg.error;  // the answer to a line this page sent
    const lines = msg.chat.lines;
    chatLast = lines.length ? lines[lines.length - 1].n : 0;
    if (!chatOpen && !chatSeen) chatSeen = +(localStorage.getItem(chatSeenKey()) || 0);
  }
  function renderChat() {
    if (!view || !view.chat || view.solo) return;
    const c = view.chat, you = view.you;
    if (chatOpen && chatSeen !== chatLast) { chatSeen = chatLast; localStorage.setItem(chatSeenKey(), String(chatSeen)); }
    const unread = c.lines.filter((l) => l.n > chatSeen && !("text" in l && l.seat === you)).length;
    chatBtn.hidden = false;
    chatBtn.textContent = unread === 1 ? t("web.chat_open_one") : unread ? t("web.chat_open", { n: unread }) : t("web.chat");
    chatBtn.dataset.unread = String(unread);
    chatTitle.textContent = t("web.chat");
    chatClose.setAttribute("aria-label", t("web.chat_close"));
    chatSend.textContent = t("web.chat_send");
    chatInput.placeholder = t("web.chat_placeholder");
    if (meta && meta.chat) chatInput.maxLength = meta.chat.length;
    const atEnd = chatList.scrollTop + chatList.clientHeight >= chatList.scrollHeight - 4;
    chatList.replaceChildren(...(c.lines.length ? c.lines.map((l) => ("text" in l
      ? h("li", { class: l.seat === you ? "mine" : null, "data-n": l.n }, h("strong", { text: l.name + ": " }), h("span", { class: "said", text: l.text }))
      : h("li", { class: "note", "data-n": l.n, text: t(l.muted ? "web.chat_muted" : "web.chat_unmuted", { name: l.name }) })))
      : [h("li", { class: "note", text: t("web.chat_nothing") })]));
    if (atEnd) chatList.scrollTop = chatList.scrollHeight;
    chatNote.textContent = you === null ? t("web.chat_spectator") : c.may ? "" : t("web.chat_muted_you");
    chatInput.disabled = chatSend.disabled = !c.may;
    chatMutes.replaceChildren(...(view.host ? view.seats.map((s, i) => (i === 0 || s.kind !== "human" ? null
      : h("button", { type: "button", class: "small", id: "chat-mute-" + i, text: t(c.muted.includes(i) ? "web.chat_unmute" : "web.chat_mute") + ": " + s.name,
        onclick: () => { chatErr.textContent = ""; send({ type: "mute", at: i, muted: !c.muted.includes(i) }); } }))).filter((b) => b) : []));
  }
  // A refused hello.  Only a token the table does not know (4401) is forgotten; a table the
  // server does not know (4404) keeps the token: the server may have been started on another database.
  async function showRefused(text, tid, code) {
    const box = h("div", { class: "panel", id: "refused" }, h("p", { class: "error", role: "alert", text }));
    if (code === 4401) localStorage.removeItem(seatKey(tid));
    else if (code === 4404 && stored(tid)) {
      let db = "?";
      // asked now: this page may have been opened on another server (its meta is cached)
      try { db = (await (await fetch("/api/meta", { cache: "no-store" })).json()).db; } catch (e) { /* the server is there: it answered */ }
      box.appendChild(h("p", { id: "no-table-kept", text: t("web.no_table_kept", { host: location.host, db }) }));
    }
    box.appendChild(h("a", { href: "/", text: t("web.home") }));
    app.replaceChildren(box);
  }
  // Who laid each of these cards, from the move log (its moves and the cards they showed; the latest wins).
  function laidBy(o, cards) {
    const by = {};
    for (const e of o.log) {
      const laid = (e.move.startsWith("play ") ? e.move.slice(5).split(" ") : []).concat(e.shown || []);
      for (const c of laid) by[c] = e.seat;
    }
    return cards.map((c) => (c in by ? by[c] : null));
  }
  // The last trick stays on the table for the pace setting, with who took it and who laid each card.
  function noteTrick(msg) {
    const o = msg.obs;
    const key = o && o.last_trick ? msg.game + ":" + JSON.stringify(o.last_trick) : "";
    if (lastTrickKey !== null && key && key !== lastTrickKey && pace() > 0) {
      held = { seat: o.last_trick[0], cards: o.last_trick[1], phase: view && view.obs ? view.obs.phase : o.phase, laid: laidBy(o, o.last_trick[1]) };
      heldUntil = Date.now() + pace() * 1000;
      clearTimeout(heldTimer);
      heldTimer = setTimeout(() => { held = null; render(); }, pace() * 1000 + 20);
      if (soundOn()) tone(440);
    }
    lastTrickKey = key;
  }
  function send(obj) {
    if (!ws || ws.readyState !== 1) {  // said, never silently lost
      setOffline(true);
      setConn(obj.type === "move" ? "web.not_sent_move" : "web.not_sent");
      if (obj.type === "move") unsent = obj;
      return false;
    }
    ws.send(JSON.stringify(obj));
    return true;
  }
  function askHint() {
    if (!view || hintAsked || !send({ type: "hint" })) return;
    hintAsked = { game: view.game, seq: view.seq };
    render();
  }
  const hintHere = () => (hintShown && view && hintShown.game === view.game && hintShown.seq === view.seq ? hintShown : null);
  function sendMove(move) {
    held = null;
    if (!view || sentSeq === view.seq) return;  // one move per position; the server refuses doubles too
    if (!send({ type: "move", game: view.game, seq: view.seq, move })) { selected.clear(); render(); return; }
    sentSeq = view.seq;
    document.body.dataset.sent = "1";
  }

  // ----------------------------------------------------------------- render
  const name = (i) => (view.seats[i] ? view.seats[i].name : "?");
  const joinNames = (xs) => (xs.length < 2 ? xs.join("") : xs.slice(0, -1).join(", ") + t("word.and") + xs[xs.length - 1]);
  function sortHand(cards, o) {
    if (o.phase === 1) return cards.slice().sort((a, b) => Cards.RANK_ORDER(a) - Cards.RANK_ORDER(b) || Cards.SUIT_ORDER(a) - Cards.SUIT_ORDER(b));
    const tr = o.trump;
    return cards.slice().sort((a, b) => ((a[1] === tr) - (b[1] === tr)) || Cards.SUIT_ORDER(a) - Cards.SUIT_ORDER(b) || Cards.RANK_ORDER(a) - Cards.RANK_ORDER(b));
  }
  function cardBox(code, label) {
    return h("figure", { class: "laid" }, Cards.svg(code), h("figcaption", { text: label }));
  }
  function seatBox(i) {
    const s = view.seats[i], o = view.obs;
    const tags = [];
    if (s.kind === "bot") tags.push(t("web.bot_tag", { level: t("level." + s.level) }));
    if (s.kind === "open") tags.push(t("web.open_seat"));
    if (s.standin) tags.push(t("web.standin", { name: s.name }));
    else if (s.covered) tags.push(t(s.cover_why === "host" ? "web.covered_host" : "web.covered"));
    else if (s.bot_last) tags.push(t("web.bot_last", { why: t("botwhy." + s.bot_last) }));
    else if (s.kind === "human" && !s.connected) tags.push(view.grace === null || view.status !== "playing" ? t("web.offline") : t("web.offline_grace", { n: view.grace }));
    if (view.banks && s.kind === "human" && view.status === "playing") tags.push(t("web.bank_left", { s: num(Math.ceil(view.banks[i])) }));
    const box = h("div", { class: "seat", id: "seat-" + i, "data-seat": i });
    box.appendChild(h("div", { class: "seatname" },
      o && o.to_act === i ? h("span", { class: "turnmark", "aria-label": t("status.to_act"), text: "▶ " }) : null,
      s.name + (i === view.you ? " (" + t("word.you_object") + ")" : ""),
      o && o.dealer === i ? h("span", { class: "badge", title: t("web.dealer"), text: t("web.dealer_short") }) : null));
    if (s.standin) box.classList.add("standin");
    if (tags.length) box.appendChild(h("div", { class: "tags", text: tags.join(" · ") }));
    if (o) {
      const fin = o.finished.indexOf(i), lost = o.losers.indexOf(i);
      const stats = h("div", { class: "stats" },
        h("span", { class: "mini" }, Cards.svg(null, "tiny"), " × " + o.hand_counts[i]),
        o.phase === 1 ? h("span", { text: t(o.tricks_won[i] === 1 ? "web.won_cards_one" : "web.won_cards", { cards: o.piles[i].length, tricks: o.tricks_won[i] }) }) : null);
      box.appendChild(stats);
      if (o.known[i].length && i !== view.you) {  // on a phone behind a tap (open as the player left it)
        const words = t("status.known", { cards: o.known[i].map(Cards.text).join(" ") });
        box.appendChild(narrow() ? details("known-" + i, "known", false,
          h("summary", { text: t("web.known_n", { n: o.known[i].length }) }), h("div", { text: words }))
          : h("div", { class: "known", text: words }));
      }
      if (fin >= 0) box.appendChild(h("div", { class: "place ok", text: "✓ " + t("status.finished", { place: fin + 1 }) }));
      else if ((o.waiting || []).includes(i)) box.appendChild(h("div", { class: "place waiting", text: "⏳ " + t("status.waiting") }));
      const ranked = (o.ranked || []).indexOf(i);
      if (ranked >= 0) box.appendChild(h("div", { class: "place", text: t("status.ranked", { place: o.finished.length + ranked + 1 }) }));
      if (o.blodmattis.includes(i)) box.appendChild(h("div", { class: "place bad", text: "✗ " + t("status.blodmattis") }));
      else if (lost >= 0) box.appendChild(h("div", { class: "place bad", text: "✗ " + t("status.loser." + view.loser) }));
      if (o.to_act === i) box.classList.add("acting");
      if (o.phase === 1 && o.fighters.includes(i)) box.appendChild(h("div", { class: "tags", text: t("status.fighting", { fight: t("term." + view.fight) }) }));
    }
    return box;
  }
  function loserLine(o) {
    if (o.mattis === null) return t("turn.over");
    return o.mattis === view.you ? t("web.you_lose." + view.loser) : t("end.loser." + view.loser, { name: name(o.mattis) });
  }
  function turnText(o) {
    if (o.phase === 3) return loserLine(o);
    if (o.to_act === view.you) return t("turn.you");
    return t("turn.other", { name: name(o.to_act) });
  }
  function trumpBox(o) {
    if (o.trump) {
      const label = t("label.trump") + ": " + t("suit." + "CDHS".indexOf(o.trump));
      return h("div", { class: "pile trump", id: "trump" }, o.trump_card ? Cards.svg(o.trump_card) : null, h("div", { class: "cap", text: label }));
    }
    return h("div", { class: "pile trump", id: "trump" }, Cards.svg(null, "sideways"), h("div", { class: "cap", text: t("label.trump") + ": " + (o.trump_holder !== null && o.trump_holder !== undefined ? t("trump.face_down", { name: name(o.trump_holder) }) : t("trump.in_stock")) }));
  }
  function tableArea(o) {
    const area = h("div", { class: "felt", id: "felt" });
    const piles = h("div", { class: "piles" });
    if (o.phase === 1) {
      piles.appendChild(h("div", { class: "pile", id: "stock" }, o.stock_count ? Cards.svg(null) : h("div", { class: "empty" }),
        h("div", { class: "cap", text: t("info.stock", { n: o.stock_count }) })));
    }
    piles.appendChild(trumpBox(o));
    if (o.set_aside_count) piles.appendChild(h("div", { class: "pile" }, h("div", { class: "cap", text: t("info.aside", { n: o.set_aside_count }) })));
    if (o.out_count) piles.appendChild(h("div", { class: "pile" }, h("div", { class: "cap", text: t("info.out", { n: o.out_count }) })));
    area.appendChild(piles);
    const trick = h("div", { class: "trick", id: "trick", "aria-label": t("label.table"), "aria-live": "polite" });
    if (held && Date.now() < heldUntil) {
      const you = held.seat === view.you;
      const cap = held.phase === 1 ? (you ? t("web.takes_trick_you") : t("web.takes_trick", { name: name(held.seat) }))
        : (you ? t("web.avstikk_you") : t("web.avstikk_by", { name: name(held.seat) }));
      trick.classList.add("held");
      trick.appendChild(h("div", { class: "cap taker", id: "taker", text: cap }));
      held.cards.forEach((c, i) => trick.appendChild(cardBox(c, held.laid[i] === null ? "" : name(held.laid[i]))));
    } else if (showLast && o.last_trick) {
      trick.appendChild(h("div", { class: "cap", text: t("web.last_trick_by", { name: name(o.last_trick[0]) }) }));
      const laid = laidBy(o, o.last_trick[1]);
      o.last_trick[1].forEach((c, i) => trick.appendChild(cardBox(c, laid[i] === null ? "" : name(laid[i]))));
    } else if (o.phase === 1) {
      o.table1.forEach(([s, c]) => trick.appendChild(cardBox(c, name(s))));
      if (o.fighters.length) trick.appendChild(h("div", { class: "cap war", text: t("table.fight", { fight: t("term." + view.fight), names: joinNames(o.fighters.map(name)) }) }));
    } else if (o.phase === 2) {
      o.table2.forEach(([s, cs]) => trick.appendChild(h("div", { class: "entry" }, cs.map((c) => Cards.svg(c)), h("div", { class: "cap", text: name(s) }))));
      if (o.trick_need) trick.appendChild(h("div", { class: "cap", text: t("table.need", { have: o.table2.length, need: o.trick_need }) }));
    }
    if (!trick.childNodes.length) trick.appendChild(h("div", { class: "cap muted", text: t("table.empty") }));
    area.appendChild(trick);
    return area;
  }
  function legalSets(o) {
    const single = new Set(), inSeq = new Set();
    let chance = false, pickup = false;
    for (const m of o.legal) {
      const w = m.split(" ");
      if (w[0] === "chance") chance = true;
      else if (w[0] === "pickup") pickup = true;
      else if (w.length === 2) single.add(w[1]);
      else w.slice(1).forEach((c) => inSeq.add(c));
    }
    return { single, inSeq, chance, pickup };
  }
  function selectionMove() {
    const cs = Array.from(selected);
    if (!cs.length) return null;
    cs.sort((a, b) => Cards.SUIT_ORDER(a) - Cards.SUIT_ORDER(b) || Cards.RANK_ORDER(a) - Cards.RANK_ORDER(b));
    return "play " + cs.join(" ");
  }
  function clickCard(code) {
    const o = view.obs, L = legalSets(o);
    if (!o || o.to_act !== view.you || view.paused) return;
    if (L.inSeq.has(code) || selected.size) {
      if (selected.has(code)) selected.delete(code); else selected.add(code);
      render();
      return;
    }
    sendMove("play " + code);
  }
  function handArea(o) {
    const mine = o.to_act === view.you && o.phase !== 3 && !view.paused;
    const L = legalSets(o), hinted = hintHere(), hintMove = hinted ? hinted.move : "";
    const hand = h("div", { class: "hand" + (o.hand.length > 12 ? " many" : ""), id: "hand", role: "group", "aria-label": t("label.hand") });
    sortHand(o.hand, o).forEach((c, k) => {
      const legal = mine && (L.single.has(c) || L.inSeq.has(c));
      const b = h("button", { type: "button", class: "card" + (legal ? " legal" : "") + (selected.has(c) ? " selected" : "") + (hinted && hinted.cards.includes(c) ? " hinted" : ""),
        "data-card": c, "data-key": k < 9 ? String(k + 1) : null, "aria-pressed": selected.has(c) ? "true" : null,
        "aria-label": Cards.text(c) + (legal ? " — " + t("web.playable") : ""), disabled: !mine,
        onclick: () => clickCard(c) }, Cards.svg(c), legal ? h("span", { class: "dot", "aria-hidden": "true" }) : null);
      hand.appendChild(b);
    });
    if (!o.hand.length) hand.appendChild(h("div", { class: "cap muted", text: t("web.no_cards") }));
    const selMove = selectionMove();
    const selLegal = selMove && o.legal.includes(selMove);
    // Only buttons that can ever apply in this phase under these rules are shown.
    const canSeq = view.sequences >= 2, canChance = o.phase === 1 && view.chance !== "off";
    const actions = h("div", { class: "actions" },
      canSeq ? h("button", { type: "button", id: "btn-play", class: "primary", disabled: !(mine && selLegal), text: t("web.play_selected") + keyHint("⏎"), onclick: () => { sendMove(selMove); } }) : null,
      canChance || L.chance ? h("button", { type: "button", id: "btn-chance", class: hintMove === "chance" ? "hinted" : null, disabled: !(mine && L.chance), text: t("btn.chance") + keyHint("c"), onclick: () => sendMove("chance") }) : null,
      o.phase === 2 || L.pickup ? h("button", { type: "button", id: "btn-pickup", class: hintMove === "pickup" ? "hinted" : null, disabled: !(mine && L.pickup), text: t("btn.pickup") + keyHint("p"), onclick: () => sendMove("pickup") }) : null,
      h("button", { type: "button", id: "btn-last", disabled: !o.last_trick, "aria-pressed": showLast ? "true" : "false", text: t("btn.last") + keyHint("l"), onclick: () => { showLast = !showLast; render(); } }),
      h("button", { type: "button", id: "btn-hint", disabled: !mine || !!hintAsked || !!hinted, text: t("btn.hint") + keyHint("h"), onclick: askHint }));
    // The hint's sentence (or that it is being worked out), right above the hand like a refusal.
    const hintLine = hinted ? h("p", { class: "hintline", id: "hint", role: "status", text: hinted.text })
      : hintAsked && hintAsked.game === view.game && hintAsked.seq === view.seq ? h("p", { class: "hintline", id: "hint", role: "status", text: t("web.hint_working") }) : null;
    // The hand, the buttons and a refusal: docked at the bottom of a phone's screen while the game is on (style.css).
    const playing = view.status === "playing" && o.phase !== 3;
    // Her turn clock (and then her time bank) counted down right by her hand, next to "Your turn" when docked.
    const clock = mine && view.timer && view.timer.kind === "clock" && view.timer.seat === view.you
      ? h("span", { class: "badge timer mine", id: "hand-timer", "aria-hidden": "true", text: timerText() }) : null;
    return h("section", { class: "me" + (playing ? " dock" : "") + (mine ? " mine" : ""), id: "me" },
      playing ? h("div", { class: "handhead" + (clock ? " clocked" : "") },
        h("span", { class: "dockturn", "aria-hidden": "true", text: turnText(o) }), clock) : null,
      view.error ? h("p", { class: "error", role: "alert", id: "error", text: view.error }) : null,
      hintLine, hand, actions);
  }
  function logArea(o) {
    // Newest first, so the latest move is always in view.
    const ol = h("ol", { class: "log", id: "log", reversed: true, start: o.log_start + o.log.length },
      o.log.map((e, k) => h("li", { text: e.text, "data-seat": e.seat, "data-n": o.log_start + k + 1 })).reverse());
    return details("logbox", "panel logbox", window.innerWidth > 700, h("summary", { text: t("label.log") }), ol);
  }
  function resultArea(o) {
    const order = o.finished.map((s, k) => h("li", { text: t("status.finished", { place: k + 1 }) + ": " + name(s) }));
    (o.ranked || []).forEach((s, k) => order.push(h("li", { class: "ranked", text: t("status.ranked", { place: o.finished.length + k + 1 }) + ": " + name(s) })));
    o.losers.forEach((s) => order.push(h("li", { class: "bad", text: (o.blodmattis.includes(s) ? t("status.blodmattis") : t("status.loser." + view.loser)) + ": " + name(s) })));
    const g = view.game;
    return h("section", { class: "panel result", id: "result", role: "status" },
      h("h2", { text: loserLine(o) }),
      o.end_reason && o.end_reason !== "normal" ? h("p", { text: t("end.reason." + o.end_reason) }) : null,
      h("ul", { class: "order" }, order),
      rematchButton(),
      h("button", { type: "button", id: "btn-replay", onclick: () => openReplay(g), text: t("web.replay") }),
      h("button", { type: "button", id: "btn-analyse", onclick: () => openAnalysis(g), text: t("analyse.button") }),
      h("a", { id: "download", href: "/api/tables/" + view.table + "/games/" + g + "/record", download: "mattis-" + view.table + "-" + g + ".json", text: t("web.download") }));
  }
  function rematchButton(label, question) {
    if (view.you === null) return null;
    if (panel === "confirm-rematch") return h("div", { class: "confirm", id: "confirm-rematch" }, h("p", { text: question || t("web.confirm_rematch") }),
      h("button", { type: "button", id: "btn-rematch-yes", class: "primary", text: t("web.confirm"), onclick: () => { panel = null; send({ type: "rematch", game: view.game }); } }),
      h("button", { type: "button", text: t("web.cancel"), onclick: () => { panel = null; render(); } }));
    return h("button", { type: "button", id: "btn-rematch", class: "primary", text: label || t("web.rematch"), onclick: () => { panel = "confirm-rematch"; render(); } });
  }
  function endedArea() {
    return h("section", { class: "panel result", id: "result", role: "status" }, h("h2", { text: t("web.ended") }),
      rematchButton(t("web.new_game"), t("web.confirm_new_game")));
  }
  function tallyArea() {
    if (!view.tally.games) return null;
    return h("div", { class: "tally", id: "tally" }, t("web.tally", { games: view.tally.games }) + " " +
      view.seats.map((s, i) => s.name + " " + view.tally.mattis[i]).join(", "), " ",
      h("ul", { class: "games", id: "tally-games" }, view.records.map((g) => h("li", { "data-game": g },
        h("strong", { text: t("web.game_n", { n: g }) + ": " }),
        h("button", { type: "button", class: "small", "data-replay": g, onclick: () => openReplay(g), text: t("web.replay") }),
        h("button", { type: "button", class: "small", "data-analyse": g, onclick: () => openAnalysis(g), text: t("analyse.button") }),
        h("a", { class: "small", "data-record": g, href: "/api/tables/" + view.table + "/games/" + g + "/record",
          download: "mattis-" + view.table + "-" + g + ".json", text: t("web.download") })))));
  }
  function lobbyArea() {
    const base = location.origin + "/t/" + view.table;
    const box = h("section", { class: "panel lobby" }, h("h2", { text: t("web.waiting_room") }));
    if (view.invite) {
      box.appendChild(linkBox("invite-link", t("web.invite_link"), base + "?invite=" + view.invite, t("web.invite_hint")));
      box.appendChild(h("label", {}, t("web.watch_link"), h("input", { id: "watch-link", readonly: true, value: base + "?watch=1", onfocus: (e) => e.target.select() })));
    }
    box.appendChild(h("ul", { class: "seatlist" }, view.seats.map((s, i) => h("li", { "data-seat": i },
      t("web.seat_n", { n: i + 1 }) + ": " + (s.kind === "open" ? t("web.open_seat")
        : s.name + (s.kind === "bot" ? " — " + t("web.bot_tag", { level: t("level." + s.level) }) : ""))))));
    if (view.host || (view.host_away && view.you !== null)) {
      if (!view.host) box.appendChild(h("p", { id: "host-away", text: t("web.host_away", { name: name(0) }) }));
      const lvl = h("select", { id: "fill-level", "aria-label": t("web.fill_level") },
        ["easy", "medium", "hard", "expert"].map((l) => h("option", { value: l, text: t("level." + l), selected: l === "medium" })));
      box.appendChild(h("label", {}, t("web.fill_level"), lvl));
      box.appendChild(h("button", { type: "button", id: "btn-start", class: "primary", text: t("web.start"), onclick: () => send({ type: "start", level: lvl.value }) }));
    } else box.appendChild(h("p", { text: t("web.wait_host") }));
    return box;
  }
  // The host's seat controls: before the start friend <-> bot and remove; later a bot for a player, a new link.
  function hostArea() {
    if (!view.host || view.status === "over" || view.status === "ended") return null;
    const lobby = view.status === "lobby";
    const rows = [];
    view.seats.forEach((s, i) => {
      if (i === 0) return;
      const btns = [];
      const act = (kind, label, id) => btns.push(h("button", { type: "button", class: "small", id: id + "-" + i, text: label,
        onclick: () => send({ type: "seat", at: i, kind }) }));
      if (lobby && s.kind === "open") act("bot", t("web.make_bot"), "seat-bot");
      if (lobby && s.kind === "bot") act("open", t("web.make_friend"), "seat-open");
      if (lobby && s.kind === "human") act("open", t("web.remove", { name: s.name }), "seat-remove");
      if (!lobby && s.kind === "human") act("bot", t("web.replace_bot", { name: s.name }), "seat-replace");
      if (s.kind === "bot" && s.back) act("back", t("web.give_back", { name: s.name }), "seat-back");
      if (s.kind === "human" || (s.kind === "bot" && s.back)) act("reinvite", t("web.reinvite", { name: s.name }), "seat-reinvite");
      if (btns.length) rows.push(h("li", {}, h("span", { text: t("web.seat_n", { n: i + 1 }) + ": " + (s.kind === "open" ? t("web.open_seat") : s.name) + " " }), ...btns));
    });
    const box = details("host-tools", "panel hostbox", lobby || !!reinvite, h("summary", { text: t("web.host_tools") }),
      h("ul", { class: "seatlist" }, rows));
    if (reinvite) box.appendChild(linkBox("reinvite-link", t("web.reinvite_done", { name: name(reinvite.seat) }), reinvite.link));
    if (!lobby) {
      box.appendChild(panel === "confirm-end"
        ? h("div", { class: "confirm" }, h("p", { text: t("web.confirm_end") }),
          h("button", { type: "button", id: "btn-end-yes", class: "primary", text: t("web.confirm"), onclick: () => { panel = null; send({ type: "end" }); } }),
          h("button", { type: "button", text: t("web.cancel"), onclick: () => { panel = null; render(); } }))
        : h("button", { type: "button", id: "btn-end", text: t("web.end_game"), onclick: () => { panel = "confirm-end"; render(); } }));
    }
    return box;
  }
  // The host's turn controls, in view during the game: nudge or skip the person to act, pause.
  function turnControls(o) {
    if (!view.host || view.status !== "playing" || !o) return null;
    const s = o.to_act === null || o.to_act === undefined ? null : view.seats[o.to_act];
    const person = s && o.to_act !== 0 && s.kind === "human" && !s.standin && !s.covered;
    const box = h("div", { class: "actions hostturn", id: "host-turn" });
    if (person && !view.paused) {
      box.appendChild(h("button", { type: "button", class: "small", id: "btn-nudge", disabled: nudged === o.to_act,
        text: t("web.nudge", { name: s.name }), onclick: () => send({ type: "nudge", at: o.to_act }) }));
      box.appendChild(h("button", { type: "button", class: "small", id: "btn-skip",
        text: t("web.skip", { name: s.name }), onclick: () => send({ type: "skip" }) }));
    }
    box.appendChild(h("button", { type: "button", class: "small", id: "btn-pause", "aria-pressed": view.paused ? "true" : "false",
      text: view.paused ? t("web.resume") : t("web.pause"), onclick: () => send({ type: "pause", paused: !view.paused }) }));
    if (nudged !== null && s) box.appendChild(h("span", { class: "hint", id: "nudged", "aria-live": "polite", text: t("web.nudged", { name: name(nudged) }) }));
    return box;
  }
  // This seat's own resume link (open it on another device to take the seat there).
  function resumeArea() {
    if (view.you === null) return null;
    const seat = stored(view.table);
    if (!seat || !seat.token) return null;
    return details("resume", "panel resumebox", false, h("summary", { text: t("web.resume_link") }),
      linkBox("resume-link", t("web.resume_link"), resumeLink(view.table, seat.token), t("web.resume_hint")));
  }
  let rulesData = null;
  async function openRules() {
    panel = "rules";
    try { rulesData = await (await fetch("/api/tables/" + view.table + "/rules")).json(); } catch (e) { rulesData = null; }
    render();
  }
  function rulesArea() {
    const r = rulesData;
    const words = r && r.words ? r.words[lang] : [], house = r && r.house ? r.house[lang] : [];
    const dl = (pairs, id) => h("dl", { class: "rules", id }, pairs.flatMap(([k, v]) => [h("dt", { text: k }), h("dd", { text: v })]));
    return h("section", { class: "panel rulespage", id: "rules-page" },
      h("h2", { text: t("web.rules_title", { name: gameName() }) }),
      h("p", { class: "hint", text: t("rules.preset." + view.rules_name) }),
      h("h3", { text: t("web.house_rules") }),
      house.length ? dl(house, "house-list") : h("p", { id: "house-list", text: t("web.house_rules_none", { name: gameName() }) }),
      h("button", { type: "button", id: "btn-howto", text: t("web.howto"), onclick: () => { panel = "howto"; render(); } }),
      h("h3", { text: t("web.rules_page") }), dl(words, "rules-list"),
      h("button", { type: "button", id: "btn-rules-back", class: "primary", text: t("web.back_to_table"), onclick: () => { panel = null; render(); } }));
  }
  // The game written as a name, as the terminal writes it ("Slik spiller du Mattis").
  function gameName() {
    const n = view.rules_name || "";
    return n.charAt(0).toUpperCase() + n.slice(1);
  }
  // How to play under the rules in force: core.text.how_to_play, the same text as the terminal's.
  function howtoArea() {
    const how = rulesData && rulesData.how ? rulesData.how[lang] : [];
    return h("section", { class: "panel rulespage", id: "howto-page" },
      h("h2", { text: t("tui.howto.title", { name: gameName() }) }),
      how.flatMap(([head, para]) => [h("h3", { text: head }), h("p", { text: para })]),
      h("button", { type: "button", id: "btn-howto-rules", text: t("web.rules_page"), onclick: () => { panel = "rules"; render(); } }),
      h("button", { type: "button", id: "btn-howto-back", class: "primary", text: t("web.back_to_table"), onclick: () => { panel = null; render(); } }));
  }
  async function openReplay(g) {
    replayStop(); panel = "replay"; replayAt = 0; replayData = null;
    try {
      const r = await fetch("/api/tables/" + view.table + "/games/" + g + "/replay?lang=" + lang);
      replayData = await r.json();
    } catch (e) { replayData = null; }
    render();
  }
  // Autoplay: one move per pause setting (at least 0.6 s), stopping at the end or when the replay closes.
  function replayStop() { clearInterval(replayTimer); replayTimer = null; }
  function replayPlay() {
    if (replayTimer) { replayStop(); render(); return; }
    if (replayData && replayAt >= replayData.steps.length - 1) replayAt = 0;
    replayTimer = setInterval(() => {
      if (panel !== "replay" || !replayData || replayAt >= replayData.steps.length - 1) { replayStop(); render(); return; }
      replayAt++; render();
    }, Math.max(600, pace() * 1000));
    render();
  }
  function replayArea() {
    const d = replayData;
    if (!d || !d.steps) return h("section", { class: "panel", id: "replay" }, h("p", { text: t("web.connecting") }));
    const n = d.steps.length - 1, st = d.steps[replayAt];
    const who = (s) => s === null || s === undefined ? "" : d.names[s];
    const go = (k) => { replayAt = Math.max(0, Math.min(n, k)); render(); };
    const ends = d.steps.map((x, i) => (x.took === null || x.took === undefined ? -1 : i)).filter((i) => i >= 0);
    const prevTrick = () => { const e = ends.filter((i) => i < replayAt); go(e.length ? e[e.length - 1] : 0); };
    const nextTrick = () => { const e = ends.find((i) => i > replayAt); go(e === undefined ? n : e); };
    const trick = h("div", { class: "trick", id: "replay-trick" });
    if (st.taken) {  // the move completed a trick: its cards with who laid each, and who took it
      trick.classList.add("held");
      trick.appendChild(h("div", { class: "cap taker", id: "replay-taker", text: st.took_phase === 1
        ? t("web.takes_trick", { name: who(st.took) }) : t("web.avstikk_by", { name: who(st.took) }) }));
      st.taken.forEach(([s, c]) => trick.appendChild(h("div", { class: "entry" }, Cards.svg(c), h("div", { class: "cap", text: who(s) }))));
    } else {
      st.table.forEach(([s, cs]) => trick.appendChild(h("div", { class: "entry" }, cs.map((c) => Cards.svg(c)), h("div", { class: "cap", text: who(s) }))));
    }
    if (!trick.childNodes.length) trick.appendChild(h("div", { class: "cap muted", text: t("table.empty") }));
    const facts = h("p", { class: "replayfacts", id: "replay-facts" },
      h("span", { id: "replay-trump", text: t("label.trump") + ": " + (st.trump_card ? Cards.text(st.trump_card) : st.trump ? Cards.text("A" + st.trump).slice(-1) : "—") }),
      st.phase === 1 ? h("span", { id: "replay-stock", text: t("info.stock", { n: st.stock_count }) }) : null,
      h("span", { id: "replay-tricks", text: t("web.replay_tricks", { n: st.trick }) }));
    return h("section", { class: "panel replay", id: "replay" },
      h("h2", { text: t("web.replay_title", { n: d.game }) }),
      h("div", { class: "row" },
        h("button", { type: "button", id: "replay-prev-trick", disabled: replayAt === 0, text: "⇤ " + t("web.replay_prev_trick"), onclick: prevTrick }),
        h("button", { type: "button", id: "replay-prev", disabled: replayAt === 0, text: "← " + t("web.prev"), onclick: () => go(replayAt - 1) }),
        h("strong", { id: "replay-step", text: replayAt ? t("web.replay_step", { n: replayAt, total: n }) : t("web.replay_deal") }),
        h("button", { type: "button", id: "replay-next", disabled: replayAt === n, text: t("web.next") + " →", onclick: () => go(replayAt + 1) }),
        h("button", { type: "button", id: "replay-next-trick", disabled: replayAt === n, text: t("web.replay_next_trick") + " ⇥", onclick: nextTrick }),
        h("button", { type: "button", id: "replay-play", "aria-pressed": replayTimer ? "true" : "false", text: replayTimer ? t("web.replay_pause") : t("web.replay_play"), onclick: replayPlay })),
      h("input", { type: "range", id: "replay-slider", class: "slider", min: "0", max: String(n), value: String(replayAt),
        "aria-label": t("web.replay_slider"), onchange: (e) => go(+e.target.value) }),
      h("p", { id: "replay-text", text: st.text || t("web.replay_deal") }),
      facts, trick,
      h("ul", { class: "replayhands" }, st.hands.map((cs, s) => h("li", {}, h("strong", { text: d.names[s] + ": " }),
        cs.length ? cs.map(Cards.text).join(" ") : t("web.no_cards")))),
      h("button", { type: "button", id: "btn-replay-back", class: "primary", text: t("web.back_to_table"), onclick: () => { replayStop(); panel = null; render(); } }));
  }
  // The server queues reviews: 202 with the place in the queue, then the decisions done; ask again each second.
  async function openAnalysis(g) {
    panel = "analysis"; analysisData = null; analysisWait = null; analysisDeeper = {}; render();
    const seat = view.you === null ? 0 : view.you, ask = ++analysisAsk;
    const url = "/api/tables/" + view.table + "/games/" + g + "/analysis?seat=" + seat + "&lang=" + lang;
    while (panel === "analysis" && ask === analysisAsk) {
      let r, d;
      try { r = await fetch(url); d = await r.json(); }
      catch (e) { analysisData = { error: t("analyse.failed", { detail: String(e) }), game: g }; break; }
      if (panel !== "analysis" || ask !== analysisAsk) return;
      if (r.status === 202 || r.status === 429) {
        if (r.status === 202) { analysisWait = d; render(); }
        const after = Math.max(1, Math.min(30, +(r.headers.get("Retry-After") || 1)));
        await new Promise((ok) => setTimeout(ok, 1000 * after));
        continue;
      }
      analysisData = d; analysisData.game = g; break;
    }
    if (ask === analysisAsk) render();
  }
  // "Look deeper" at one decision: the server queues it like a review (202, ask again); once it is there the
  // game's review comes back with that decision in place (its line, the words, the chart), fetched again.
  async function lookDeeper(g, n) {
    const ask = analysisAsk, seat = view.you === null ? 0 : view.you;
    const base = "/api/tables/" + view.table + "/games/" + g + "/analysis";
    const q = "?seat=" + seat + "&lang=" + lang;
    analysisDeeper[n] = { status: "waiting" }; render();
    while (panel === "analysis" && ask === analysisAsk) {
      let r, d;
      try { r = await fetch(base + "/deeper" + q + "&move=" + n); d = await r.json(); }
      catch (e) { analysisDeeper[n] = { error: t("analyse.failed", { detail: String(e) }) }; break; }
      if (panel !== "analysis" || ask !== analysisAsk) return;
      if (r.status === 202 || r.status === 429) {
        const after = Math.max(1, Math.min(30, +(r.headers.get("Retry-After") || 1)));
        await new Promise((ok) => setTimeout(ok, 1000 * after));
        continue;
      }
      if (!r.ok) { analysisDeeper[n] = { error: d.error || String(r.status) }; break; }
      try {
        const full = await fetch(base + q);
        if (full.status === 200 && ask === analysisAsk) { const g0 = analysisData.game; analysisData = await full.json(); analysisData.game = g0; }
      } catch (e) { /* the deeper lines below still show */ }
      analysisDeeper[n] = { status: "done", note: d.note };
      break;
    }
    if (ask === analysisAsk) render();
  }
  // The chance over the game: the line with the best move, the points with the move made (each with about
  // two standard errors), the marked choices in colour.
  function analysisChart(d) {
    const NS = "http://www.w3.org/2000/svg", W = narrow() ? 380 : 640, H = narrow() ? 240 : 220, L = 34, B = 22;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 " + W + " " + H); svg.setAttribute("id", "analysis-chart");
    svg.setAttribute("role", "img"); svg.setAttribute("aria-label", d.words ? d.words.title : t("review.chart.y"));
    const el = (tag, at) => { const e = document.createElementNS(NS, tag); for (const k in at) e.setAttribute(k, at[k]); svg.appendChild(e); return e; };
    const last = Math.max(1, d.moves);
    const x = (n) => L + (W - L - 8) * n / last, y = (p) => 8 + (H - B - 8) * (1 - Math.max(0, Math.min(1, p)));
    [0, 0.5, 1].forEach((p) => { el("line", { x1: L, x2: W - 8, y1: y(p), y2: y(p), class: "grid" }); el("text", { x: 2, y: y(p) + 4, class: "axis" }).textContent = Math.round(100 * p) + "%"; });
    el("text", { x: W / 2, y: H - 4, class: "axis" }).textContent = t("review.chart.x");
    // a phase 1 decision whose moves the estimate does not tell apart is not drawn (Decision.informative)
    const shown = d.decisions.filter((e) => e.informative !== false);
    el("polyline", { points: shown.map((e) => x(e.move) + "," + y(e.before)).join(" "), class: "best" });
    for (const e of shown) {
      const v = (e.moves || []).find((m) => m.move === e.played), se = v ? v.se : 0;
      if (se > 0) el("line", { x1: x(e.move), x2: x(e.move), y1: y(e.after - 2 * se), y2: y(e.after + 2 * se), class: "err" });
      if (e.mark) el("line", { x1: x(e.move), x2: x(e.move), y1: y(e.before), y2: y(e.after), class: "cost mark" + e.mark.length });
      el("circle", { cx: x(e.move), cy: y(e.after), r: e.mark ? 4 : 2.5, class: e.mark ? "played marked" : "played" });
      // its mark ("?", "??") beside the point, kept inside the chart: left of it near the right edge, above it near the bottom
      if (e.mark) {
        const right = x(e.move) + 24 > W, low = y(e.after) + 12 > H - B;
        el("text", { x: right ? x(e.move) - 5 : x(e.move) + 4, y: low ? y(e.after) - 6 : y(e.after) + 12, "text-anchor": right ? "end" : "start",
          class: "marktext" }).textContent = e.mark;
      }
    }
    return svg;
  }
  // The review for a non-expert: the chart, the deal's luck and the accuracy, the three costliest choices
  // in words (the lab's sentences, mattis.lab.review_words, as the terminal says them), the detail on a tap.
  function analysisArea() {
    const d = analysisData, back = h("button", { type: "button", id: "btn-analysis-back", class: "primary", text: t("web.back_to_table"), onclick: () => { panel = null; render(); } });
    if (!d) {
      const w = analysisWait;
      const progress = !w ? null : w.status === "queued" ? h("p", { id: "analysis-progress", "data-status": "queued", text: t("analyse.queued", { n: w.position }) })
        : h("p", { id: "analysis-progress", "data-status": "running" }, t("review.progress", { done: w.done, total: w.total }), " ",
          h("progress", { max: String(Math.max(1, w.total)), value: String(w.done) }));
      return h("section", { class: "panel", id: "analysis" }, h("p", { text: t("analyse.working") }), progress, back);
    }
    if (d.error) return h("section", { class: "panel", id: "analysis" }, h("p", { class: "error", role: "alert", text: d.error }),
      h("button", { type: "button", id: "btn-analysis-retry", text: t("analyse.button"), onclick: () => openAnalysis(d.game) }), back);
    const words = d.words || { title: "", summary: [], heading: "", choices: [], detail: t("review.words.detail") };
    const marked = new Set(d.decisions.filter((e) => e.mark).map((e) => String(e.move)));
    const decided = new Set(d.decisions.map((e) => String(e.move)));
    return h("section", { class: "panel analysis", id: "analysis" },
      h("h2", { text: d.lines[0] }),
      h("h3", { class: "charttitle", id: "analysis-chart-title", text: words.title }),
      analysisChart(d),
      h("p", { class: "chartkey", "aria-hidden": "true" },
        h("span", { class: "key-best", text: "— " + t("review.chart.best") }), " ",
        h("span", { class: "key-played", text: "● " + t("review.chart.played") }), " ",
        h("span", { class: "key-err", text: "| " + t("review.chart.whisker") })),
      h("div", { class: "reviewwords", id: "analysis-summary" }, words.summary.map((s) => h("p", { text: s }))),
      h("p", { class: "reviewheading", id: "analysis-heading", text: words.heading }),
      words.choices.length ? h("ol", { class: "costliest", id: "analysis-top" }, words.choices.map((s) => h("li", { text: s }))) : null,
      details("analysis-detail", "reviewdetail", false, h("summary", { text: words.detail }),
        h("p", { class: "hint", text: d.lines[2] }),
        h("ol", { class: "review", id: "analysis-list" }, d.lines.slice(4).filter((l) => l).map((l) => {
          const n = (l.match(/^(\d+)\./) || [])[1];
          if (!n || !decided.has(n)) return h("li", { class: n && marked.has(n) ? "bad" : null, text: l });
          const deep = analysisDeeper[n];
          const note = !deep ? null : deep.error ? h("span", { class: "error deepnote", role: "alert", text: deep.error })
            : deep.status === "waiting" ? h("span", { class: "deepnote", role: "status", text: t("analyse.deeper_waiting", { n }) })
            : h("span", { class: "deepnote", text: deep.note });
          return h("li", { class: marked.has(n) ? "bad" : null, "data-move": n }, h("span", { text: l }), " ",
            deep && deep.status === "waiting" ? null
              : h("button", { type: "button", class: "small deeper", "data-deeper": n, onclick: () => lookDeeper(d.game, n), text: t("analyse.deeper") }),
            note ? " " : null, note);
        }))),
      back);
  }
  function render() {
    if (!view) return;
    const o = view.obs;
    document.body.dataset.status = view.status;
    document.body.dataset.seq = view.seq;
    document.body.dataset.phase = o ? o.phase : 0;
    document.body.dataset.myturn = o && o.to_act === view.you && o.phase !== 3 && !view.paused ? "1" : "0";
    document.body.dataset.paused = view.paused ? "1" : "0";
    document.body.dataset.timer = view.timer ? view.timer.kind + ":" + view.timer.seat : "";
    document.body.dataset.hint = hintHere() ? hintHere().move : "";
    delete document.body.dataset.sent;
    const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    const sliderFocused = document.activeElement && document.activeElement.id === "replay-slider";
    const parts = [];
    const myTurn = !!(o && o.to_act === view.you && o.phase !== 3 && view.status === "playing");
    document.title = myTurn ? t("web.title_turn") : t("web.title");
    if (myTurn && !wasMyTurn && navigator.vibrate) { try { navigator.vibrate(200); } catch (e) { /* not allowed */ } }
    if (myTurn && !wasMyTurn && soundOn()) tone(660);
    wasMyTurn = myTurn;
    const paceSel = h("select", { id: "pace", "aria-label": t("web.pace"), onchange: (e) => { localStorage.setItem("mattis.pace", e.target.value); } },
      [0, 0.8, 1.5, 3].map((v) => h("option", { value: String(v), selected: v === pace(), text: t("web.pace_s", { n: num(v) }) })));
    parts.push(h("div", { class: "bar" },
      h("span", { class: "rulesname", text: view.rules_name + (view.game ? " · " + t("web.game_n", { n: view.game }) : "") }),
      o ? h("strong", { id: "turn", text: view.status === "ended" ? t("web.ended") : turnText(o) }) : null,
      view.timer ? h("span", { class: "badge timer" + (view.timer.seat === view.you ? " mine" : ""), id: "timer", "data-kind": view.timer.kind,
        "aria-live": "off", text: timerText() }) : null,
      view.you === null ? h("span", { class: "badge", text: t("web.spectator") }) : null,
      o ? h("span", { class: "phase", text: t(o.phase === 3 ? "phase.over" : "phase." + o.phase) }) : null,
      h("button", { type: "button", class: "small", id: "btn-rules", text: t("web.rules_page"), onclick: openRules }),
      o ? h("label", { class: "pace" }, t("web.pace") + " ", paceSel) : null));
    if (o && o.log.length) parts.push(h("p", { class: "lastaction", id: "last-action", "aria-live": "polite",
      text: t("web.last_action", { text: o.log[o.log.length - 1].text }) }));
    // A refusal is said right above the hand (so it never pushes the hand away), else at the top.
    const seatedInGame = !!(o && view.you !== null && !["rules", "howto", "replay", "analysis"].includes(panel));
    if (view.error && !seatedInGame) parts.push(h("p", { class: "error", role: "alert", id: "error", text: view.error }));
    if (view.given !== null && view.given !== undefined && view.seats[view.given]) parts.push(h("p", { class: "lastaction notice", role: "alert", id: "given-away",
      text: t("web.given_away", { name: view.seats[view.given].name }) }));
    if (view.paused) parts.push(h("p", { class: "lastaction notice", role: "status", id: "paused" }, h("strong", { text: t("web.paused") }), " " + t("web.paused_hint")));
    if (nudge && myTurn) parts.push(h("p", { class: "error nudge", role: "alert", id: "nudge", text: t("web.nudge_got", { by: nudge.by }) }));
    if (panel === "rules") {
      parts.push(rulesArea());
    } else if (panel === "howto") {
      parts.push(howtoArea());
    } else if (panel === "replay") {
      parts.push(replayArea());
    } else if (panel === "analysis") {
      parts.push(analysisArea());
    } else if (!o) {
      parts.push(lobbyArea());
      const ha = hostArea(); if (ha) parts.push(ha);
      const ra = resumeArea(); if (ra) parts.push(ra);
    } else {
      const others = h("div", { class: "opponents" });
      const n = view.players, me = view.you === null ? 0 : view.you;
      for (let k = view.you === null ? 0 : 1; k < n; k++) others.appendChild(seatBox((me + k) % n));
      parts.push(others);
      parts.push(tableArea(o));
      const tc = turnControls(o); if (tc) parts.push(tc);
      const shown = Object.values(reactions);
      if (shown.length) parts.push(h("p", { class: "lastaction", id: "reactions", "aria-live": "polite",
        text: shown.map((r) => t("web.reacted", { name: name(r.seat), emote: r.emote })).join(" · ") }));
      if (view.you !== null && meta && meta.reactions) parts.push(h("div", { class: "actions reacts", id: "react-bar", role: "group", "aria-label": t("web.react") },
        meta.reactions.map((e, k) => h("button", { type: "button", class: "small", id: "react-" + k, text: e, onclick: () => send({ type: "react", emote: e }) })),
        h("label", { class: "pace", title: t("web.sound_hint") }, h("input", { type: "checkbox", id: "sound", checked: soundOn(),
          onchange: (e) => { localStorage.setItem("mattis.sound", e.target.checked ? "1" : "0"); } }), " " + t("web.sound"))));
      if (view.status === "ended") parts.push(endedArea());
      else if (o.phase === 3) parts.push(resultArea(o));
      if (view.you !== null) { parts.push(seatBox(view.you)); parts.push(handArea(o)); }
      if (!touch()) parts.push(h("p", { class: "hint keys", text: t("web.keys_hint") }));
      const tl = tallyArea(); if (tl) parts.push(tl);
      parts.push(logArea(o));
      const ha = hostArea(); if (ha) parts.push(ha);
      const ra = resumeArea(); if (ra) parts.push(ra);
    }
    app.replaceChildren(...parts);
    renderChat();
    clearInterval(timerTick); timerTick = view.timer && !view.timer.paused ? setInterval(tickTimer, 250) : null;
    if (focusKey) { const f = app.querySelector('[data-card="' + focusKey + '"]'); if (f) f.focus(); }
    if (sliderFocused) { const f = document.getElementById("replay-slider"); if (f) f.focus(); }
  }

  document.addEventListener("keydown", (e) => {
    if (!view || e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
    if (panel === "replay" && replayData && replayData.steps && (e.key === "ArrowRight" || e.key === "ArrowLeft")) {
      replayAt = Math.max(0, Math.min(replayData.steps.length - 1, replayAt + (e.key === "ArrowRight" ? 1 : -1)));
      render(); e.preventDefault(); return;
    }
    if (panel || !view.obs) return;
    const o = view.obs;
    const cards = Array.from(app.querySelectorAll(".hand .card"));
    const i = cards.indexOf(document.activeElement);
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      if (!cards.length) return;
      const j = i < 0 ? 0 : (i + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
      cards[j].focus(); e.preventDefault();
    } else if (/^[1-9]$/.test(e.key)) {
      const b = cards[+e.key - 1]; if (b && !b.disabled) { b.focus(); b.click(); }
    } else if (e.key === "c") { const b = document.getElementById("btn-chance"); if (b && !b.disabled) b.click(); }
    else if (e.key === "p") { const b = document.getElementById("btn-pickup"); if (b && !b.disabled) b.click(); }
    else if (e.key === "l") { if (o.last_trick) { showLast = !showLast; render(); } }
    else if (e.key === "h") { const b = document.getElementById("btn-hint"); if (b && !b.disabled) b.click(); }
    else if (e.key === "Escape") { selected.clear(); render(); }
    else if (e.key === "Enter" && selected.size) { e.preventDefault(); const b = document.getElementById("btn-play"); if (b && !b.disabled) b.click(); }
  });

  // ------------------------------------------------------------------ route
  function route() {
    applyStatic();
    const m = (window.MattisTransport ? window.MattisTransport.path() : location.pathname).match(/^\/t\/([A-Za-z0-9_-]+)$/);
    if (!m) { view = null; hideChat(); if (ws) { ws.onclose = null; ws.close(); ws = null; } lobby(); return; }
    const tid = m[1], q = new URLSearchParams(location.search);
    const frag = new URLSearchParams(location.hash.slice(1));
    if (frag.get("seat")) {  // a resume link: this browser takes the seat (the token stays out of requests)
      const token = frag.get("seat"), had = stored(tid);
      history.replaceState(null, "", "/t/" + tid);
      if (had && had.token && had.token !== token) {  // this browser sits here already: ask which seat to keep
        app.replaceChildren(h("section", { class: "panel", id: "seat-choice" },
          h("p", { text: t("web.seat_choice", { n: had.seat === undefined || had.seat === null ? "?" : had.seat + 1 }) }),
          h("div", { class: "row" },
            h("button", { type: "button", class: "primary", id: "take-link-seat", text: t("web.take_link_seat"),
              onclick: () => { remember(tid, token, null); route(); } }),
            h("button", { type: "button", id: "keep-my-seat", text: t("web.keep_my_seat"), onclick: () => route() }))));
        return;
      }
      remember(tid, token);
    }
    const seat = stored(tid);
    if (seat) { connect(tid, seat.token); return; }
    if (q.get("invite") && !q.get("watch")) { joinForm(tid, q.get("invite")); return; }
    connect(tid, null);
  }
  window.addEventListener("popstate", route);
  fetch("/static/i18n.json").then((r) => r.json()).then((d) => { STR = d; route(); });
})();
