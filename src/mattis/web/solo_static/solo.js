/* The offline app's page side: the transport seam of app.js (window.MattisTransport) filled by a Web
   Worker that runs the engine (worker.js), instead of the server's WebSocket; the page's /api/
   requests answered by the same worker; the table's address kept in the URL's fragment (#/t/ID), so
   the bundle works from any folder of any static host.  The page gets only what the server would send
   this seat: frames built by the same Python (mattis.web.view.frame). */
"use strict";
(() => {
  const cfg = window.MATTIS_SOLO || {};
  const q = new URLSearchParams(location.search);
  const app = document.getElementById("app");
  document.body.classList.add("solo");
  document.body.dataset.solo = "loading";
  let words = null;
  const lang = () => localStorage.getItem("mattis.lang") || ((navigator.language || "").match(/^(nb|no|nn)/) ? "nb" : "en");
  const say = (key, params) => {
    let s = (words && (words[lang()] || {})[key]) || (words && words.en[key]) || key;
    for (const k in params || {}) s = s.split("{" + k + "}").join(String(params[k]));
    return s;
  };
  const status = (key, params, error) => {
    let box = document.getElementById("solo-status");
    if (!box) { box = document.createElement("p"); box.id = "solo-status"; box.setAttribute("role", "status"); }
    box.className = error ? "error" : "";
    box.textContent = say(key, params);
    if (!app.contains(box)) app.replaceChildren(box);
  };
  const realFetch = window.fetch.bind(window);
  const wordsReady = realFetch("static/i18n.json").then((r) => r.json()).then((d) => { words = d; })
    .catch(() => { words = { en: { "solo.loading": "Loading the game…", "solo.load_failed": "The game could not be loaded: {detail}. Reload the page while online." } }; });
  wordsReady.then(() => { if (document.body.dataset.solo === "loading") status("solo.loading"); });

  // ------------------------------------------------------------- the worker
  let okReady, failReady;
  const ready = new Promise((ok, fail) => { okReady = ok; failReady = fail; });
  ready.catch(() => {});
  const fail = (detail) => {
    document.body.dataset.solo = "failed";
    wordsReady.then(() => status("solo.load_failed", { detail }, true));
    failReady(new Error(detail));
  };
  let worker;
  try { worker = new Worker("worker.js"); } catch (e) { fail(String(e)); }
  const calls = {};
  let nextId = 1, sock = null;
  if (worker) {
    worker.onerror = (e) => { e.preventDefault(); fail(e.message || "worker.js"); };
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.type === "ready") { document.body.dataset.solo = "ready"; okReady(); }
      else if (m.type === "failed") fail(m.detail);
      else if (m.type === "http" || (m.type === "error" && calls[m.id])) {
        const c = calls[m.id]; delete calls[m.id];
        if (m.type === "error") c.fail(new Error(m.detail)); else c.ok(m);
      } else if (m.type === "saved") {
        document.body.dataset.saved = m.tid + ":" + m.at;
      } else if (sock && m.tid === sock.tid && sock.readyState === 1) {
        if (m.type === "frame") {
          if (m.data.startsWith('{"type":"state"')) { const f = JSON.parse(m.data); sock.last = f; document.body.dataset.undo = f.undo ? "1" : "0"; }
          sock.onmessage && sock.onmessage({ data: m.data });
        } else if (m.type === "refused") {
          const s = sock;
          s.onmessage && s.onmessage({ data: JSON.stringify({ type: "refused", error: m.error }) });
          s.readyState = 3;
          s.onclose && s.onclose({ code: 4400 });
        }
      }
    };
    const delay = q.get("bot_delay");
    worker.postMessage({ type: "boot", wheel: cfg.wheel, botDelay: delay === null ? null : +delay });
  }
  const call = (body) => ready.then(() => new Promise((ok, failCall) => {
    const id = nextId++;
    calls[id] = { ok, fail: failCall };
    worker.postMessage(Object.assign({ type: "http", id }, body));
  }));

  // ------------------------------------------------- the transport seam
  class WorkerSocket {  // what app.js uses of a WebSocket
    constructor(tid) {
      this.tid = tid; this.readyState = 0; this.lang = lang(); this.last = null;
      this.onopen = this.onmessage = this.onclose = null;
      sock = this;
      ready.then(() => { if (this.readyState !== 0) return; this.readyState = 1; this.onopen && this.onopen(); }, () => {});
    }
    send(text) {
      const m = JSON.parse(text);
      if (m.lang) this.lang = m.lang;
      if (m.type === "hello") worker.postMessage({ type: "open", tid: this.tid, lang: this.lang });
      else worker.postMessage({ type: "send", tid: this.tid, data: text, lang: this.lang });
    }
    close() { this.readyState = 3; if (sock === this) { sock = null; worker.postMessage({ type: "close", tid: this.tid }); } }
  }
  const path = () => (location.hash.startsWith("#/t/") ? location.hash.slice(1) : "/");
  window.MattisTransport = { connect: (tid) => new WorkerSocket(tid), path,
    // benchmarks/solo_web.py: bot think times and the worker's memory, measured in the worker
    bench: (args) => call(Object.assign({}, args, { type: "bench" })).then((r) => JSON.parse(r.body)) };

  // The page's addresses ("/t/ID", "/") kept in the fragment; its files fetched from the bundle.
  const here = (url) => (typeof url === "string" && (url === "/" || url.startsWith("/t/"))
    ? location.pathname + location.search + (url === "/" ? "" : "#" + url) : url);
  for (const k of ["pushState", "replaceState"]) {
    const orig = history[k].bind(history);
    history[k] = (state, title, url) => orig(state, title, here(url));
  }
  window.addEventListener("hashchange", () => window.dispatchEvent(new PopStateEvent("popstate")));
  window.fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : String(input.url);
    if (url.startsWith("/static/")) return realFetch(url.slice(1), init);
    if (url.startsWith("/api/")) {
      return call({ method: (init && init.method) || "GET", path: url, body: (init && init.body) || "" })
        .then((r) => new Response(r.body, { status: r.status, headers: { "Content-Type": "application/json" } }));
    }
    return realFetch(input, init);
  };
  // A record's download: built from the worker's copy (the game is over: nothing in it is secret any more).
  async function download(href, name) {
    const r = await call({ method: "GET", path: href, body: "" });
    const url = URL.createObjectURL(new Blob([r.body], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url; a.download = name; document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }
  document.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest("a[href]");
    if (!a) return;
    const href = a.getAttribute("href");
    if (href === "/" || href.startsWith("/t/")) {
      e.preventDefault();
      history.pushState(null, "", href);
      window.dispatchEvent(new PopStateEvent("popstate"));
    } else if (href.startsWith("/api/") && a.hasAttribute("download")) {
      e.preventDefault();
      download(href, a.getAttribute("download"));
    }
  }, true);

  // Take-back: a button beside the table's own, while the engine says the last move can be taken back.
  new MutationObserver(() => {
    const actions = document.querySelector("#me .actions");
    if (!actions || document.getElementById("btn-undo") || !sock || !sock.last) return;
    const b = document.createElement("button");
    b.type = "button"; b.id = "btn-undo"; b.textContent = say("solo.takeback");
    b.disabled = !sock.last.undo;
    b.addEventListener("click", () => { if (sock) sock.send(JSON.stringify({ type: "undo" })); });
    actions.appendChild(b);
  }).observe(app, { childList: true, subtree: true });

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("sw.js").catch((e) => { document.body.dataset.sw = "failed: " + e; });
  }
})();
