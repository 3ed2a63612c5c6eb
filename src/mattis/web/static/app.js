/* The Mattis web table: lobby, join form and the table itself.
   The server sends this seat's view only; the page never knows more. */
"use strict";
(() => {
  let STR = { en: {}, nb: {} };
  let lang = localStorage.getItem("mattis.lang") || ((navigator.language || "").match(/^(nb|no|nn)/) ? "nb" : "en");
  const app = document.getElementById("app");
  let view = null, ws = null, selected = new Set(), showLast = false, retry = 0, sentSeq = null, tableId = null;

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
  document.getElementById("lang").addEventListener("click", () => {
    lang = lang === "nb" ? "en" : "nb";
    localStorage.setItem("mattis.lang", lang);
    applyStatic();
    if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "lang", lang }));
    else route();
  });
  function setConn(key) { document.getElementById("conn").textContent = key ? t(key) : ""; }

  async function api(path, body) {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(Object.assign({ lang }, body)) });
    const data = await r.json().catch(() => ({ error: t("web.bad_reply") }));
    if (!r.ok) throw new Error(data.error || t("web.bad_reply"));
    return data;
  }
  const seatKey = (tid) => "mattis.seat." + tid;
  function stored(tid) { try { return JSON.parse(localStorage.getItem(seatKey(tid))); } catch (e) { return null; } }

  // ------------------------------------------------------------------ lobby
  let meta = null;
  async function lobby() {
    if (!meta) meta = await (await fetch("/api/meta")).json();
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
    }
    presetSel.addEventListener("change", drawPlayers);
    players.addEventListener("change", drawSeats);
    const name = h("input", { id: "name", name: "name", maxlength: 24, required: true, autocomplete: "nickname",
      value: localStorage.getItem("mattis.name") || "" });
    const overrides = h("input", { id: "overrides", name: "overrides", placeholder: "sequences=2 pickup_optional=true" });
    const err = h("p", { class: "error", role: "alert", id: "error" });
    const form = h("form", { class: "panel lobby", onsubmit: async (ev) => {
      ev.preventDefault();
      err.textContent = "";
      const ov = {};
      for (const w of overrides.value.split(/[\s,]+/).filter(Boolean)) {
        const [k, v] = w.split("=");
        if (!k || v === undefined) { err.textContent = t("web.bad_override", { text: w }); return; }
        ov[k] = v;
      }
      const n = +players.value;
      const seats = [{ kind: "human" }];
      for (let i = 1; i < n; i++) seats.push({ kind: document.getElementById("seat-kind-" + i).value,
        level: document.getElementById("seat-level-" + i).value });
      try {
        localStorage.setItem("mattis.name", name.value);
        const body = { preset: presetSel.value, players: n, overrides: ov, seats, name: name.value };
        const seed = new URLSearchParams(location.search).get("seed");  // honoured only by test servers
        if (seed) body.seed = +seed;
        const r = await api("/api/tables", body);
        localStorage.setItem(seatKey(r.table), JSON.stringify({ token: r.token, seat: r.seat }));
        history.pushState(null, "", "/t/" + r.table);
        route();
      } catch (e) { err.textContent = e.message; }
    } },
      h("h2", { text: t("web.new_table") }),
      h("label", {}, t("web.your_name"), name),
      h("label", {}, t("label.rules"), presetSel), doc,
      h("label", {}, t("label.players"), players),
      seatsBox,
      h("label", {}, t("web.overrides"), overrides),
      h("button", { type: "submit", id: "create", class: "primary", text: t("web.create") }), err);
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
        localStorage.setItem(seatKey(tid), JSON.stringify({ token: r.token, seat: r.seat }));
        history.replaceState(null, "", "/t/" + tid);
        route();
      } catch (e) { err.textContent = e.message; }
    } }, h("h2", { text: t("web.join_title") }), h("label", {}, t("web.your_name"), name),
      h("button", { type: "submit", id: "join", class: "primary", text: t("web.join") }),
      h("a", { href: "/t/" + tid + "?watch=1", text: t("web.watch_instead") }), err));
    name.focus();
  }

  // ---------------------------------------------------------------- connect
  function connect(tid, token) {
    if (ws) { ws.onclose = null; ws.close(); }
    tableId = tid;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(proto + "//" + location.host + "/ws/" + tid);
    setConn("web.connecting");
    ws.onopen = () => { retry = 0; setConn(""); ws.send(JSON.stringify({ type: "hello", token: token || undefined, lang })); };
    ws.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      if (msg.type === "refused") { ws.onclose = null; showRefused(msg.error, tid); return; }
      if (view && (msg.game !== view.game || msg.seq !== view.seq)) { selected.clear(); showLast = false; }
      view = msg;
      sentSeq = null;
      render();
    };
    ws.onclose = () => {
      setConn("web.reconnecting");
      retry = Math.min(retry + 1, 6);
      setTimeout(() => connect(tid, token), 300 * retry);
    };
  }
  function showRefused(text, tid) {
    localStorage.removeItem(seatKey(tid));
    app.replaceChildren(h("div", { class: "panel" }, h("p", { class: "error", role: "alert", text }),
      h("a", { href: "/", text: t("web.home") })));
  }
  function send(obj) {
    if (!ws || ws.readyState !== 1) return;
    ws.send(JSON.stringify(obj));
  }
  function sendMove(move) {
    if (!view || sentSeq === view.seq) return;  // one move per position; the server refuses doubles too
    sentSeq = view.seq;
    send({ type: "move", game: view.game, seq: view.seq, move });
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
    if (s.kind === "human" && !s.connected) tags.push(t("web.offline"));
    const box = h("div", { class: "seat", id: "seat-" + i, "data-seat": i });
    box.appendChild(h("div", { class: "seatname" },
      o && o.to_act === i ? h("span", { class: "turnmark", "aria-label": t("status.to_act"), text: "▶ " }) : null,
      s.name + (i === view.you ? " (" + t("word.you_object") + ")" : ""),
      o && o.dealer === i ? h("span", { class: "badge", title: t("web.dealer"), text: t("web.dealer_short") }) : null));
    if (tags.length) box.appendChild(h("div", { class: "tags", text: tags.join(" · ") }));
    if (o) {
      const fin = o.finished.indexOf(i), lost = o.losers.indexOf(i);
      const stats = h("div", { class: "stats" },
        h("span", { class: "mini" }, Cards.svg(null, "tiny"), " × " + o.hand_counts[i]),
        o.phase === 1 ? h("span", { text: t("web.won_cards", { cards: o.piles[i].length, tricks: o.tricks_won[i] }) }) : null);
      box.appendChild(stats);
      if (o.known[i].length && i !== view.you) box.appendChild(h("div", { class: "known", text: t("status.known", { cards: o.known[i].map(Cards.text).join(" ") }) }));
      if (fin >= 0) box.appendChild(h("div", { class: "place ok", text: "✓ " + t("status.finished", { place: fin + 1 }) }));
      const ranked = (o.ranked || []).indexOf(i);
      if (ranked >= 0) box.appendChild(h("div", { class: "place", text: t("status.ranked", { place: o.finished.length + ranked + 1 }) }));
      if (o.blodmattis.includes(i)) box.appendChild(h("div", { class: "place bad", text: "✗ " + t("status.blodmattis") }));
      else if (lost >= 0) box.appendChild(h("div", { class: "place bad", text: "✗ " + t("status.loser." + view.loser) }));
      if (o.to_act === i) box.classList.add("acting");
      if (o.phase === 1 && o.fighters.includes(i)) box.appendChild(h("div", { class: "tags", text: t("status.fighting", { fight: t("term." + view.fight) }) }));
    }
    return box;
  }
  function turnText(o) {
    if (o.phase === 3) return o.mattis !== null ? t("end.loser." + view.loser, { name: name(o.mattis) }) : t("turn.over");
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
    if (showLast && o.last_trick) {
      trick.appendChild(h("div", { class: "cap", text: t("web.last_trick_by", { name: name(o.last_trick[0]) }) }));
      o.last_trick[1].forEach((c) => trick.appendChild(cardBox(c, "")));
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
    if (!o || o.to_act !== view.you) return;
    if (L.inSeq.has(code) || selected.size) {
      if (selected.has(code)) selected.delete(code); else selected.add(code);
      render();
      return;
    }
    sendMove("play " + code);
  }
  function handArea(o) {
    const mine = o.to_act === view.you && o.phase !== 3;
    const L = legalSets(o);
    const hand = h("div", { class: "hand", id: "hand", role: "group", "aria-label": t("label.hand") });
    sortHand(o.hand, o).forEach((c, k) => {
      const legal = mine && (L.single.has(c) || L.inSeq.has(c));
      const b = h("button", { type: "button", class: "card" + (legal ? " legal" : "") + (selected.has(c) ? " selected" : ""),
        "data-card": c, "data-key": k < 9 ? String(k + 1) : null, "aria-pressed": selected.has(c) ? "true" : null,
        "aria-label": Cards.text(c) + (legal ? " — " + t("web.playable") : ""), disabled: !mine,
        onclick: () => clickCard(c) }, Cards.svg(c), legal ? h("span", { class: "dot", "aria-hidden": "true", text: "●" }) : null);
      hand.appendChild(b);
    });
    if (!o.hand.length) hand.appendChild(h("div", { class: "cap muted", text: t("web.no_cards") }));
    const selMove = selectionMove();
    const selLegal = selMove && o.legal.includes(selMove);
    const actions = h("div", { class: "actions" },
      h("button", { type: "button", id: "btn-play", class: "primary", disabled: !(mine && selLegal), text: t("web.play_selected") + " (⏎)", onclick: () => { sendMove(selMove); } }),
      h("button", { type: "button", id: "btn-chance", disabled: !(mine && L.chance), text: t("btn.chance") + " (c)", onclick: () => sendMove("chance") }),
      h("button", { type: "button", id: "btn-pickup", disabled: !(mine && L.pickup), text: t("btn.pickup") + " (p)", onclick: () => sendMove("pickup") }),
      h("button", { type: "button", id: "btn-last", disabled: !o.last_trick, "aria-pressed": showLast ? "true" : "false", text: t("btn.last") + " (l)", onclick: () => { showLast = !showLast; render(); } }));
    return h("section", { class: "me" }, hand, actions);
  }
  function logArea(o) {
    const ol = h("ol", { class: "log", id: "log", start: o.log_start + 1 }, o.log.map((e) => h("li", { text: e.text })));
    return h("details", { class: "panel logbox", open: window.innerWidth > 700 }, h("summary", { text: t("label.log") }), ol);
  }
  function resultArea(o) {
    const order = o.finished.map((s, k) => h("li", { text: t("web.place_n", { place: k + 1 }) + ": " + name(s) }));
    (o.ranked || []).forEach((s, k) => order.push(h("li", { class: "ranked", text: t("status.ranked", { place: o.finished.length + k + 1 }) + ": " + name(s) })));
    o.losers.forEach((s) => order.push(h("li", { class: "bad", text: (o.blodmattis.includes(s) ? t("status.blodmattis") : t("status.loser." + view.loser)) + ": " + name(s) })));
    const g = view.game;
    return h("section", { class: "panel result", id: "result", role: "status" },
      h("h2", { text: o.mattis !== null ? t("end.loser." + view.loser, { name: name(o.mattis) }) : t("turn.over") }),
      o.end_reason && o.end_reason !== "normal" ? h("p", { text: t("end.reason." + o.end_reason) }) : null,
      h("ol", { class: "order" }, order),
      view.you !== null ? h("button", { type: "button", id: "btn-rematch", class: "primary", text: t("web.rematch"), onclick: () => send({ type: "rematch" }) }) : null,
      h("a", { id: "download", href: "/api/tables/" + view.table + "/games/" + g + "/record", download: "mattis-" + view.table + "-" + g + ".json", text: t("web.download") }));
  }
  function tallyArea() {
    if (!view.tally.games) return null;
    return h("div", { class: "tally", id: "tally" }, t("web.tally", { games: view.tally.games }) + " " +
      view.seats.map((s, i) => s.name + " " + view.tally.mattis[i]).join(", "));
  }
  function lobbyArea() {
    const base = location.origin + "/t/" + view.table;
    const box = h("section", { class: "panel lobby" }, h("h2", { text: t("web.waiting_room") }));
    if (view.invite) {
      const link = base + "?invite=" + view.invite;
      box.appendChild(h("label", {}, t("web.invite_link"), h("input", { id: "invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() })));
      box.appendChild(h("label", {}, t("web.watch_link"), h("input", { id: "watch-link", readonly: true, value: base + "?watch=1", onfocus: (e) => e.target.select() })));
      box.appendChild(h("p", { class: "hint", text: t("web.invite_hint") }));
    }
    box.appendChild(h("ul", { class: "seatlist" }, view.seats.map((s, i) => h("li", {},
      t("web.seat_n", { n: i + 1 }) + ": " + s.name + (s.kind === "bot" ? " — " + t("web.bot_tag", { level: t("level." + s.level) }) : s.kind === "open" ? " — " + t("web.open_seat") : "")))));
    if (view.host) {
      const lvl = h("select", { id: "fill-level", "aria-label": t("web.fill_level") },
        ["easy", "medium", "hard", "expert"].map((l) => h("option", { value: l, text: t("level." + l), selected: l === "medium" })));
      box.appendChild(h("label", {}, t("web.fill_level"), lvl));
      box.appendChild(h("button", { type: "button", id: "btn-start", class: "primary", text: t("web.start"), onclick: () => send({ type: "start", level: lvl.value }) }));
    } else box.appendChild(h("p", { text: t("web.wait_host") }));
    return box;
  }
  function render() {
    if (!view) return;
    const o = view.obs;
    document.body.dataset.status = view.status;
    document.body.dataset.seq = view.seq;
    document.body.dataset.phase = o ? o.phase : 0;
    document.body.dataset.myturn = o && o.to_act === view.you && o.phase !== 3 ? "1" : "0";
    delete document.body.dataset.sent;
    const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    const parts = [];
    parts.push(h("div", { class: "bar" },
      h("span", { class: "rulesname", text: view.rules_name + (view.game ? " · " + t("web.game_n", { n: view.game }) : "") }),
      o ? h("strong", { id: "turn", text: turnText(o) }) : null,
      view.you === null ? h("span", { class: "badge", text: t("web.spectator") }) : null,
      o ? h("span", { class: "phase", text: t(o.phase === 3 ? "phase.over" : "phase." + o.phase) }) : null));
    if (view.error) parts.push(h("p", { class: "error", role: "alert", id: "error", text: view.error }));
    if (!o) {
      parts.push(lobbyArea());
    } else {
      const others = h("div", { class: "opponents" });
      const n = view.players, me = view.you === null ? 0 : view.you;
      for (let k = view.you === null ? 0 : 1; k < n; k++) others.appendChild(seatBox((me + k) % n));
      parts.push(others);
      parts.push(tableArea(o));
      if (o.phase === 3) parts.push(resultArea(o));
      if (view.you !== null) { parts.push(seatBox(view.you)); parts.push(handArea(o)); }
      parts.push(h("p", { class: "hint keys", text: t("web.keys_hint") }));
      const tl = tallyArea(); if (tl) parts.push(tl);
      parts.push(logArea(o));
    }
    app.replaceChildren(...parts);
    if (focusKey) { const f = app.querySelector('[data-card="' + focusKey + '"]'); if (f) f.focus(); }
  }

  document.addEventListener("keydown", (e) => {
    if (!view || !view.obs || e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
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
    else if (e.key === "Escape") { selected.clear(); render(); }
    else if (e.key === "Enter" && selected.size) { e.preventDefault(); const b = document.getElementById("btn-play"); if (b && !b.disabled) b.click(); }
  });

  // ------------------------------------------------------------------ route
  function route() {
    applyStatic();
    const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/);
    if (!m) { view = null; if (ws) { ws.onclose = null; ws.close(); ws = null; } lobby(); return; }
    const tid = m[1], q = new URLSearchParams(location.search);
    const seat = stored(tid);
    if (seat) { connect(tid, seat.token); return; }
    if (q.get("invite") && !q.get("watch")) { joinForm(tid, q.get("invite")); return; }
    connect(tid, null);
  }
  window.addEventListener("popstate", route);
  fetch("/static/i18n.json").then((r) => r.json()).then((d) => { STR = d; route(); });
})();
