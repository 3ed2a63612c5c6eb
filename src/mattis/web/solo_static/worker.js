/* The offline app's engine: Pyodide running this project's own Python (the wheel in the bundle) in a
   Web Worker.  The page's requests (solo.js: the WebSocket's messages and the /api/ requests, in the
   server's shapes) go to mattis.web.solo.Solo; each table's event log is kept in IndexedDB after every
   change.  Only frames built by mattis.web.view.frame (the seat's view) go back to the page. */
"use strict";
let pyodide = null, solo = null, db = null, botDelay = 600, current = null, botTimer = null;
const langs = {};

function openDb() {
  return new Promise((ok, fail) => {
    const r = indexedDB.open("mattis-solo", 1);
    r.onupgradeneeded = () => r.result.createObjectStore("tables");
    r.onsuccess = () => ok(r.result);
    r.onerror = () => fail(r.error);
  });
}
function idb(mode, fn) {
  return new Promise((ok, fail) => {
    const tx = db.transaction("tables", mode), req = fn(tx.objectStore("tables"));
    tx.oncomplete = () => ok(req.result);
    tx.onerror = () => fail(tx.error);
  });
}
async function save(tid) {
  const text = solo.saved(tid);
  await idb("readwrite", (s) => s.put(text, tid));
  postMessage({ type: "saved", tid, at: solo.where(tid) });
}
function frame(tid, data) { if (data !== undefined && data !== null) postMessage({ type: "frame", tid, data }); }

// The bots' turns, one at a time, with a pause between them so the page can show each move.
function bots(tid) {
  clearTimeout(botTimer);
  if (tid !== current || !solo.bot_due(tid)) return;
  botTimer = setTimeout(async () => {
    if (tid !== current || !solo.bot_due(tid)) return;
    solo.bot_move(tid);
    frame(tid, solo.view(tid, langs[tid] || "en"));
    await save(tid);
    bots(tid);
  }, botDelay);
}

// A runtime file that cannot be fetched is said at once (Pyodide itself may wait forever on it).
let failed = false;
function failBoot(detail) { if (!failed && !solo) { failed = true; postMessage({ type: "failed", detail }); } }
const netFetch = self.fetch.bind(self);
self.fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input).split("/").pop();
  let r;
  try { r = await netFetch(input, init); } catch (e) { failBoot(url + ": " + (e && e.message || e)); throw e; }
  if (!r.ok) failBoot(url + ": HTTP " + r.status);
  return r;
};

async function boot(cfg) {
  if (cfg.botDelay !== undefined && cfg.botDelay !== null) botDelay = cfg.botDelay;
  importScripts("pyodide/pyodide.js");
  pyodide = await loadPyodide({ indexURL: new URL("pyodide/", self.location.href).href });
  const wheel = await fetch(cfg.wheel);
  if (!wheel.ok) throw new Error(cfg.wheel + ": " + wheel.status);
  pyodide.unpackArchive(await wheel.arrayBuffer(), "wheel");
  pyodide.runPython("from mattis.web.solo import Solo, think_times\nsolo = Solo()");
  solo = pyodide.globals.get("solo");
  db = await openDb();
}

async function handle(m) {
  if (m.type === "http") {
    const r = solo.request(m.method, m.path, m.body || "").toJs();
    const [status, body] = r;
    if (m.method === "POST" && m.path === "/api/tables" && status === 200) await save(JSON.parse(body).table);
    postMessage({ type: "http", id: m.id, status, body });
  } else if (m.type === "bench") {  // benchmarks/solo_web.py: bot think times and memory, in this worker
    const times = m.level ? pyodide.globals.get("think_times")(m.preset, m.players, m.level, m.games, m.seed).toJs() : [];
    const body = JSON.stringify({ times, wasm_heap: pyodide._module.HEAP8.length });
    postMessage({ type: "http", id: m.id, status: 200, body });
  } else if (m.type === "open") {
    current = m.tid;
    langs[m.tid] = m.lang || "en";
    let why = null;
    try {
      const text = await idb("readonly", (s) => s.get(m.tid));
      why = solo.load(m.tid, text === undefined ? null : String(text), langs[m.tid]);
    } catch (e) { why = String(e && e.message || e); }
    if (why !== null && why !== undefined) { postMessage({ type: "refused", tid: m.tid, error: why }); return; }
    frame(m.tid, solo.view(m.tid, langs[m.tid]));
    bots(m.tid);
  } else if (m.type === "close") {
    if (current === m.tid) { current = null; clearTimeout(botTimer); }
  } else if (m.type === "send") {
    const msg = JSON.parse(m.data);
    if (msg.lang) langs[m.tid] = msg.lang;
    const [out, changed] = solo.message(m.tid, m.data, langs[m.tid] || "en").toJs();
    frame(m.tid, out);
    if (changed) { await save(m.tid); bots(m.tid); }
  }
}

let ready = null;
const queue = [];
onmessage = (e) => {
  const m = e.data;
  if (m.type === "boot") {
    ready = boot(m).then(() => { if (!failed) postMessage({ type: "ready" }); },
      (err) => failBoot(String(err && err.message || err)));
    return;
  }
  // one message at a time, in order (each may wait on the storage)
  queue.push(m);
  if (queue.length === 1) drain();
};
async function drain() {
  await ready;
  while (queue.length) {
    const m = queue[0];
    try { await handle(m); } catch (err) {
      postMessage({ type: "error", id: m.id, detail: String(err && err.message || err) });
    }
    queue.shift();
  }
}
