// The live view: it follows the league through /stream (server-sent
// events relayed from the manager's journaled feed) and reads the table
// from /standings. Every string is put in the page with textContent, never
// as markup, whatever a participant named itself.
"use strict";

const view = {
  lastSeq: 0,
  running: new Map(),  // match id -> {id, a, b, referee, step}
  recent: [],          // latest results first
  matches: new Map(),  // match id -> {a, b, steps: [], pathA: [], pathB: []}
  results: [],         // times of results, for the rate
  round: 0, done: 0, total: 0,
  picked: "",
  pairings: new Map(), // match id -> {player_a, player_b}, from /schedule
};

const $ = (id) => document.getElementById(id);

function cell(row, text, cls) {
  const td = document.createElement("td");
  td.textContent = text === undefined || text === null ? "" : String(text);
  if (cls) td.className = cls;
  row.appendChild(td);
  return td;
}

function fill(parent, items, make, tag = "tr") {
  const rows = items.map((it) => { const el = document.createElement(tag); make(el, it); return el; });
  parent.replaceChildren(...rows);
}

function match(id) {
  if (!view.matches.has(id)) {
    const p = view.pairings.get(id) || {};
    view.matches.set(id, { id, a: p.player_a || "", b: p.player_b || "", steps: [], pathA: [], pathB: [] });
    if (!p.player_a) view.scheduleDue = true;
  }
  return view.matches.get(id);
}

// loadSchedule learns who plays each match (the feed's match_assigned
// names only the match); asked again when a match is not in it yet.
async function loadSchedule() {
  view.scheduleDue = false;
  const resp = await fetch("schedule", { cache: "no-store" });
  if (!resp.ok) return;
  for (const p of (await resp.json()) || []) {
    view.pairings.set(p.match_id, p);
    const m = view.matches.get(p.match_id);
    if (m && !m.a) { m.a = p.player_a; m.b = p.player_b; }
  }
  render();
}

// A link race's step detail: "A: page (step n) · B: page (step n)".
const raceStep = /^A: (.*) \(step \d+\) · B: (.*) \(step \d+\)$/;

function apply(ev) {
  if (ev.seq <= view.lastSeq) return; // seen before a reconnect
  view.lastSeq = ev.seq;
  switch (ev.kind) {
    case "league_started":
      if (ev.start) view.gameType = ev.start.game_type;
      break;
    case "round_announced":
      view.round = Math.max(view.round, ev.round || 0);
      break;
    case "match_assigned": {
      const m = match(ev.match_id);
      view.running.set(ev.match_id, { id: ev.match_id, referee: ev.referee, step: "assigned" });
      m.steps.push({ time: ev.time, text: "assigned to " + ev.referee });
      break;
    }
    case "match_step": {
      const m = match(ev.match_id);
      const r = view.running.get(ev.match_id);
      if (r) r.step = ev.step;
      m.steps.push({ time: ev.time, text: ev.step + (ev.detail ? ": " + ev.detail : "") });
      const race = raceStep.exec(ev.detail || "");
      if (race) {
        if (m.pathA[m.pathA.length - 1] !== race[1]) m.pathA.push(race[1]);
        if (m.pathB[m.pathB.length - 1] !== race[2]) m.pathB.push(race[2]);
      }
      if (ev.step === "abandoned" || ev.step === "interrupted") view.running.delete(ev.match_id);
      break;
    }
    case "match_result": {
      const res = ev.result || {};
      const m = match(ev.match_id);
      m.a = res.PlayerA; m.b = res.PlayerB;
      m.steps.push({ time: ev.time, text: "result: " + describe(res) });
      view.running.delete(ev.match_id);
      view.recent.unshift({ id: ev.match_id, a: res.PlayerA, b: res.PlayerB, result: describe(res),
        reason: ev.facts ? ev.facts.reason : "" });
      view.recent.length = Math.min(view.recent.length, 25);
      view.results.push(Date.parse(ev.time));
      view.standingsDue = true;
      break;
    }
    case "league_completed":
    case "stopped":
      view.running.clear();
      view.standingsDue = true;
      break;
  }
}

function describe(r) {
  if (r.Status === "WIN") return r.Winner + " wins";
  if (r.Status === "DRAW") return "draw";
  if (r.Winner) return r.Winner + " wins, technical loss for " + (r.Offenders || []).join(", ");
  return "technical loss for both";
}

function render() {
  $("round").textContent = String(view.round || "-");
  $("running-count").textContent = String(view.running.size);
  const now = view.results.length ? view.results[view.results.length - 1] : 0;
  const window = view.results.filter((t) => now - t <= 10000);
  const span = window.length > 1 ? (window[window.length - 1] - window[0]) / 1000 : 0;
  $("rate").textContent = (span > 0 ? (window.length - 1) / span : 0).toFixed(1);
  fill($("running").tBodies[0], [...view.running.values()], (tr, r) => {
    const m = match(r.id);
    cell(tr, r.id); cell(tr, (m.a && m.b) ? m.a + " vs " + m.b : ""); cell(tr, r.referee); cell(tr, r.step);
    tr.className = "pick"; tr.dataset.match = r.id;
  });
  fill($("recent").tBodies[0], view.recent, (tr, r) => {
    cell(tr, r.id); cell(tr, r.a + " vs " + r.b); cell(tr, r.result); cell(tr, r.reason);
    tr.className = "pick"; tr.dataset.match = r.id;
  });
  renderFlow();
}

function renderFlow() {
  const id = view.picked || (view.running.size ? [...view.running.keys()][0] : (view.recent[0] || {}).id);
  if (!id) return;
  const m = match(id);
  $("flow-match").textContent = id;
  $("flow-players").textContent = (m.a && m.b) ? m.a + " vs " + m.b : "";
  fill($("flow"), m.steps, (li, s) => { li.textContent = s.text; }, "li");
  $("race").hidden = !(m.pathA.length || m.pathB.length);
  fill($("path-a"), m.pathA, (li, p) => { li.textContent = p; }, "li");
  fill($("path-b"), m.pathB, (li, p) => { li.textContent = p; }, "li");
}

async function loadStandings() {
  view.standingsDue = false;
  if (view.final) return;
  const resp = await fetch("standings", { cache: "no-store" });
  if (!resp.ok) return;
  const doc = await resp.json();
  if (!view.final) showStandings(doc); // the final standings are the last word
}

function showStandings(doc) {
  $("league").textContent = doc.league_id;
  $("game").textContent = doc.game_type || view.gameType || "";
  view.done = doc.matches_done; view.total = doc.matches_total;
  view.round = Math.max(view.round, doc.rounds_completed);
  $("done").textContent = String(doc.matches_done);
  $("total").textContent = String(doc.matches_total);
  $("progress").max = Math.max(doc.matches_total, 1);
  $("progress").value = doc.matches_done;
  const ratings = new Map(((doc.ratings || {}).players || []).map((r) => [r.player_id, r]));
  fill($("standings").tBodies[0], doc.standings || [], (tr, r) => {
    const rt = ratings.get(r.player_id);
    cell(tr, r.rank, "n"); cell(tr, r.player_id); cell(tr, r.display_name);
    cell(tr, r.played, "n"); cell(tr, r.wins, "n"); cell(tr, r.draws, "n"); cell(tr, r.losses, "n");
    cell(tr, r.technical_losses, "n"); cell(tr, r.points, "n");
    cell(tr, rt && rt.rated ? (rt.elo >= 0 ? "+" : "") + Math.round(rt.elo) : "-", "n");
    cell(tr, rt && rt.rated ? "±" + Math.round(rt.ci95) : "-", "n");
    cell(tr, r.status || "");
    tr.dataset.player = r.player_id;
  });
  setState(doc.state);
  document.body.dataset.standingsVersion = String(doc.version);
}

function setState(state) {
  const tag = $("state");
  tag.textContent = state;
  tag.className = "tag " + state;
  document.body.dataset.state = state;
}

let refreshing = null;
function scheduleStandings() {
  if (refreshing || !view.standingsDue) return;
  refreshing = setTimeout(async () => {
    try { await loadStandings(); } catch (e) { /* the next result asks again */ }
    refreshing = null;
    scheduleStandings();
  }, 250);
}

function connect() {
  // EventSource reconnects by itself, sending the last id it saw: the
  // stream resumes after it, so nothing is missed or shown twice.
  const stream = new EventSource("stream?after=" + view.lastSeq);
  view.stream = stream;
  stream.onmessage = (msg) => {
    apply(JSON.parse(msg.data));
    scheduleStandings();
    if (view.scheduleDue && !view.scheduleLoading) {
      view.scheduleLoading = true;
      loadSchedule().catch(() => {}).finally(() => { view.scheduleLoading = false; });
    }
    render();
  };
  stream.addEventListener("state", (msg) => {
    const st = JSON.parse(msg.data);
    setState(st.state);
    if (st.state === "completed" || st.state === "stopped") { view.standingsDue = true; scheduleStandings(); }
  });
  stream.addEventListener("manager", (msg) => {
    const st = JSON.parse(msg.data);
    const el = $("manager");
    el.textContent = st.up ? "manager: up" : "manager: not answering, retrying";
    el.className = st.up ? "dim" : "down";
    if (st.up) { view.standingsDue = true; scheduleStandings(); }
  });
  // The last event of a league that has ended: its final standings, sent
  // before the manager stops. The page shows them and stops reading, so it
  // never reconnects to a manager that is gone.
  stream.addEventListener("final", (msg) => {
    const doc = JSON.parse(msg.data);
    stream.close();
    view.final = true;
    view.standingsDue = false;
    if (refreshing) { clearTimeout(refreshing); refreshing = null; }
    view.running.clear();
    showStandings(doc);
    render();
    $("final").hidden = false;
    $("manager").textContent = "final standings: the league has " + (doc.state === "stopped" ? "stopped" : "completed");
    $("manager").className = "dim";
    document.body.dataset.final = "true";
  });
  stream.onopen = () => { $("manager").textContent = "manager: up"; $("manager").className = "dim"; };
}

document.addEventListener("click", (e) => {
  const tr = e.target.closest("tr.pick");
  if (tr) { view.picked = tr.dataset.match; renderFlow(); }
});

loadStandings().catch(() => {});
connect();
