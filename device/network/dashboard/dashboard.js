/* Houston's dashboard: subscribe to the box's public topics over MQTT/WebSockets and draw them.
 *
 * A game's view names the widgets it wants drawn (games/widgets.py); this page draws widget
 * *kinds* through a registry, `window.HOUSTON_WIDGETS = {kind: render(widget) -> Element}`, so
 * another file (e.g. controls.js) can register a kind of its own. The fields every view carries
 * (game, title, phase, round, turn, scores, winners, widgets) fill the header and the turn line.
 *
 * Topics: houston/<box>/state (retained), .../log (retained: this game's public events),
 * .../events (live), .../availability, and with ?team=... that team's own topic. An empty
 * retained message clears a topic: the page empties what it showed from it. Text from the box is
 * always inserted with textContent, never as HTML. */
"use strict";

const TEAM_HEX = { red: "#e53935", blue: "#1e88e5", green: "#43a047", yellow: "#fdd835",
                   purple: "#b55fd0", white: "#eeeeee", black: "#8b949e" };
const REFUSAL_MS = 6000;

const page = { conn: "connecting", since: null, online: null, onlineSince: null, state: null, log: null,
               team: "", teamData: null, shown: {}, shownGame: null, refusalTimer: 0, client: null, base: "" };
const $ = (id) => document.getElementById(id);

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "style") node.setAttribute("style", value);
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role") node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function words(text) { return String(text ?? "").replace(/_/g, " "); }
function capital(text) { const t = words(text); return t ? t[0].toUpperCase() + t.slice(1) : t; }
/* Team names read the same everywhere: "Red", "Blue", ... */
function teamName(team) { return capital(team); }
function teamColour(team) { return TEAM_HEX[String(team || "").toLowerCase()] || "#8b949e"; }
function plural(n, word) { return `${n} ${n === 1 ? word : `${word}s`}`; }
/* "1 astronauts" reads wrong: a label of a count of one loses its plural s ("points" -> "point"). */
function countLabel(value, label) {
  const text = words(label);
  return value === 1 && /[^su]s$/.test(text) ? text.slice(0, -1) : text;
}
function show(node, visible) { node.hidden = !visible; return visible; }

/* --- colours: text on a coloured face is black or white, whichever reads better (WCAG) --- */
const RGB_CACHE = new Map();
function rgbOf(colour) {
  if (RGB_CACHE.has(colour)) return RGB_CACHE.get(colour);
  const probe = el("span", { style: `color: ${colour}` });
  document.body.append(probe);
  const m = getComputedStyle(probe).color.match(/\d+(\.\d+)?/g) || ["128", "128", "128"];
  probe.remove();
  const rgb = m.slice(0, 3).map(Number);
  RGB_CACHE.set(colour, rgb);
  return rgb;
}
function luminance([r, g, b]) {
  const f = (c) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}
function inkOn(colour) {
  const l = luminance(rgbOf(colour));
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
}
function faceColour(colour) { return TEAM_HEX[String(colour || "").toLowerCase()] || colour || "#f0f3f6"; }

/* --- the widget kinds ------------------------------------------------------------------------ */

function titled(widget, cls, ...body) {
  return el("section", { class: `widget ${cls}`, "data-kind": widget.kind },
            widget.title ? el("h2", {}, widget.title) : null, ...body);
}

function counterSpan(c) {
  return el("span", { class: "count", "data-label": c.label },
            el("b", {}, String(c.value ?? "")), " ", countLabel(c.value, c.label));
}

function renderTeams(widget) {
  const rows = (widget.rows || []).map((row) => el("div", {
    class: `team${row.active ? " active" : ""}${row.out ? " out" : ""}`,
    style: `--c: ${teamColour(row.team)}`, "data-team": row.team, "data-key": `team:${row.team}`,
  },
  el("div", { class: "name" }, el("span", { class: "swatch", "aria-hidden": "true" }), teamName(row.team),
     row.active ? el("span", { class: "tag now" }, "now") : null,
     ...(row.badges || []).map((b) => el("span", { class: "tag" }, words(b)))),
  el("div", { class: "facts" }, ...(row.counters || []).map(counterSpan))));
  return titled(widget, "teams", el("div", { class: "team-grid" }, ...rows));
}

function renderCounters(widget) {
  return titled(widget, "counters", el("div", { class: "cells" }, ...(widget.items || []).map((c) =>
    el("div", { class: "cell", "data-key": `counter:${c.label}` },
       el("span", { class: "value" }, String(c.value ?? "")), el("span", { class: "label" }, words(c.label))))));
}

function renderDice(widget) {
  const faces = widget.faces || [];
  const body = faces.length
    ? faces.map((f) => {
      const bg = faceColour(f.colour);
      return el("span", { class: "die", "data-face": f.label, style: `background: ${bg}; color: ${inkOn(bg)}` }, words(f.label));
    })
    : [el("span", { class: "quiet" }, "not rolled yet")];
  return titled(widget, "dice", el("div", { class: "dice-row" }, ...body));
}

function renderDisc(widget) {
  const segments = widget.segments || [];
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "-50 -50 100 100");
  svg.setAttribute("role", "img");
  const described = segments.map((s) => `${teamName(s.team)} ${words(s.label)}${s.marked ? " (marked)" : ""}`);
  svg.setAttribute("aria-label", `${widget.title || "disc"}: ${described.join(", ")}`);
  const n = Math.max(segments.length, 1), r1 = 46, r0 = 24;
  segments.forEach((s, i) => {
    const a0 = (i / n) * 2 * Math.PI - Math.PI / 2, a1 = ((i + 1) / n) * 2 * Math.PI - Math.PI / 2;
    const p = (r, a) => `${(r * Math.cos(a)).toFixed(2)} ${(r * Math.sin(a)).toFixed(2)}`;
    const large = a1 - a0 > Math.PI ? 1 : 0;
    const fill = teamColour(s.team);
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", `M ${p(r0, a0)} L ${p(r1, a0)} A ${r1} ${r1} 0 ${large} 1 ${p(r1, a1)} `
      + `L ${p(r0, a1)} A ${r0} ${r0} 0 ${large} 0 ${p(r0, a0)} Z`);
    path.setAttribute("fill", fill);
    path.setAttribute("stroke", s.marked ? "#ffffff" : "#0d1117");
    path.setAttribute("stroke-width", s.marked ? "2.5" : "1");
    path.dataset.team = s.team;
    if (s.marked) path.dataset.marked = "true";
    svg.append(path);
    const mid = (a0 + a1) / 2, label = document.createElementNS(ns, "text");
    label.setAttribute("x", (35 * Math.cos(mid)).toFixed(2));
    label.setAttribute("y", (35 * Math.sin(mid)).toFixed(2));
    label.setAttribute("fill", inkOn(fill));
    label.textContent = `${words(s.label)}${s.marked ? " ▲" : ""}`;
    svg.append(label);
  });
  const centre = document.createElementNS(ns, "text");
  centre.setAttribute("x", "0"); centre.setAttribute("y", "0");
  centre.setAttribute("class", "centre");
  centre.textContent = words(widget.centre || "");
  svg.append(centre);
  return titled(widget, "disc", svg);
}

function renderSlots(widget) {
  return titled(widget, "slots", el("div", { class: "cells" }, ...(widget.items || []).map((s) =>
    el("div", { class: `cell slot${s.team ? " held" : ""}`, style: `--c: ${s.team ? teamColour(s.team) : "#30363d"}`,
                "data-key": `slot:${s.label}`, "data-team": s.team || "" },
       el("span", { class: "label" }, words(s.label)),
       el("span", { class: "value" }, s.text ? words(s.text) : (s.team ? teamName(s.team) : "empty"))))));
}

function renderTable(widget) {
  const head = el("tr", {}, ...(widget.columns || []).map((c) => el("th", { scope: "col" }, words(c))));
  const rows = (widget.rows || []).map((row) => el("tr", { "data-key": `row:${row[0]}` }, ...row.map((cell, i) => {
    const text = i === 0 && TEAM_HEX[String(cell).toLowerCase()] ? teamName(cell) : words(cell ?? "");
    return el(i === 0 ? "th" : "td", i === 0 ? { scope: "row" } : {},
              i === 0 && TEAM_HEX[String(cell).toLowerCase()]
                ? el("span", { class: "swatch", style: `--c: ${teamColour(cell)}`, "aria-hidden": "true" }) : null, text);
  })));
  return titled(widget, "table", el("table", {}, el("thead", {}, head), el("tbody", {}, ...rows)));
}

function renderLogWidget(widget) {
  const lines = (widget.lines || []).slice().reverse();
  if (!lines.length) return titled(widget, "log-widget", el("p", { class: "quiet" }, "nothing yet"));
  return titled(widget, "log-widget", el("ol", { class: "lines" }, ...lines.map((line) => el("li", {}, String(line)))));
}

function renderCards(widget) {
  const items = widget.items || [];
  const body = items.length
    ? el("ul", { class: "card-list" }, ...items.map((c) => el("li", { class: "card", "data-card": c.id || c.name || "" },
      el("span", { class: "card-name" }, words(c.name)), c.text ? el("span", { class: "card-text" }, String(c.text)) : null)))
    : el("p", { class: "quiet" }, "no cards");
  return titled(widget, "cards", body);
}

function renderBanner(widget) {
  return titled(widget, "banner", el("p", { class: "banner-text" }, String(widget.text ?? "")),
                widget.detail ? el("p", { class: "banner-detail" }, String(widget.detail)) : null);
}

window.HOUSTON_WIDGETS = Object.assign({
  teams: renderTeams, counters: renderCounters, dice: renderDice, disc: renderDisc, slots: renderSlots,
  table: renderTable, log: renderLogWidget, cards: renderCards, banner: renderBanner,
}, window.HOUSTON_WIDGETS || {});

/* Helpers another widget file may use (controls.js): building nodes, team colours, commands. */
window.HOUSTON = { el, words, teamName, teamColour, inkOn, plural,
  command(name, payload) {
    if (!page.client || !page.client.connected) return false;
    page.client.publish(`${page.base}/cmd/${name}`, JSON.stringify(payload || {}), { qos: 1 });
    return true;
  } };

function drawWidget(widget) {
  const render = window.HOUSTON_WIDGETS[widget && widget.kind];
  if (typeof render !== "function") return null;  // a kind this page does not know: skip it
  try { return render(widget); } catch (err) { console.error("widget", widget.kind, err); return null; }
}

/* Mark what changed since the last drawing (a short highlight; no motion when reduced motion is asked). */
function highlight(container, scope) {
  const before = page.shown[scope] || null;
  const now = {};
  // the smallest thing that changed glows: a team row, a cell, a table row; a whole widget only
  // when it has no such parts
  container.querySelectorAll("[data-kind], [data-key]").forEach((node, i) => {
    if (node.dataset.kind && node.querySelector("[data-key]")) return;
    const key = node.dataset.key ? `${scope}|${node.dataset.key}` : `${scope}|${node.dataset.kind}|${i}`;
    now[key] = node.textContent + (node.getAttribute("class") || "").replace(" changed", "");
    if (before && key in before && before[key] !== now[key]) node.classList.add("changed");
  });
  page.shown[scope] = now;
}

function drawWidgets(container, widgets, scope) {
  const nodes = (Array.isArray(widgets) ? widgets : []).map(drawWidget).filter(Boolean);
  container.replaceChildren(...nodes);
  highlight(container, scope);
  return nodes.length;
}

/* --- connection status ------------------------------------------------------------------------ */

function clock(ms) { return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); }

function setConn(conn) {
  if (conn !== page.conn) { page.conn = conn; page.since = Date.now(); }
  setStatus();
}

function setStatus() {
  const status = $("status");
  let label = "connecting…", kind = "connecting";
  if (page.conn === "auth") { label = "wrong password: the broker refused this page"; kind = "auth"; }
  else if (page.conn === "down") { label = `no connection to the broker since ${clock(page.since)}`; kind = "noconn"; }
  else if (page.conn === "up" && page.online === "online") { label = "live"; kind = "live"; }
  else if (page.conn === "up" && page.online === "offline") {
    label = `box offline since ${clock(page.onlineSince || page.since)}`; kind = "offline";
  } else if (page.conn === "up") { label = "waiting for the box"; }
  status.textContent = label;
  status.className = `status ${kind}`;
  status.dataset.state = kind;
  document.body.dataset.conn = kind;
}

/* --- the public page ------------------------------------------------------------------------- */

/* The view of the game the page should show: none at idle once another game is chosen. */
function currentGame(state) {
  const game = state && state.game;
  if (!game || typeof game !== "object") return null;
  if (state.mode === "idle" && state.selected && game.game && game.game !== state.selected) return null;
  return game;
}

/* The team the box waits on: the view's `turn`, else the one team button the prompt lights. */
function awaitedTeam(state, game) {
  if (game && game.turn) return game.turn;
  if (!state || state.mode !== "game") return null;
  const lit = ((state.prompt && state.prompt.lights) || []).filter((l) => TEAM_HEX[l]);
  return lit.length === 1 ? lit[0] : null;
}

function isOver(state, game) {
  return Boolean(game && (game.phase === "over" || (state.mode === "idle" && (game.winners || []).length)));
}

function renderHeader(state, game) {
  const titles = Object.fromEntries((state.games || []).map((g) => [g.id, g.title]));
  const title = game ? game.title || titles[game.game] : titles[state.selected];
  $("title").textContent = title ? `Houston · ${title}` : "Houston";
  document.title = title ? `${title} · Houston` : "Houston";
  const phase = $("phase");
  let phaseText = "idle";
  if (isOver(state, game)) phaseText = "game over";
  else if (game && state.mode === "game") phaseText = words(game.phase || "");
  phase.textContent = phaseText;
  phase.dataset.phase = game ? game.phase || "" : "idle";
  show(phase, Boolean(phaseText));
  const round = $("round");
  const r = game ? game.round : null;
  round.textContent = r !== null && r !== undefined ? `round ${r}${game.rounds ? ` of ${game.rounds}` : ""}` : "";
  show(round, Boolean(round.textContent));
}

function renderTurn(state, game) {
  const turn = $("turn");
  const team = isOver(state, game) ? null : awaitedTeam(state, game);
  turn.textContent = team ? `${teamName(team)}'s turn` : "";
  turn.style.setProperty("--c", team ? teamColour(team) : "transparent");
  turn.dataset.team = team || "";
  show(turn, Boolean(team));
}

function renderReveal(state, game) {
  const box = $("reveal");
  if (!show(box, isOver(state, game))) { box.replaceChildren(); return; }
  const winners = game.winners || [];
  const headline = winners.length
    ? `${winners.map(teamName).join(" and ")} ${winners.length > 1 ? "win" : "wins"}!` : "Game over";
  const detail = [];
  const last = page.log && page.log.game === game.game ? page.log.lines || [] : [];
  // the reveal: what the box said as the game ended (not the prompt, not the bare "game over")
  const said = last.filter((line) => line.type === "say");
  for (const line of said.slice(-3)) detail.push(line.text);
  box.replaceChildren(el("h2", {}, "Game over"), el("p", { class: "reveal-text", "data-winners": winners.join(" ") }, headline),
                      ...detail.map((t) => el("p", { class: "reveal-detail" }, t)));
}

function renderFallback(game) {
  /* A view that declares no widgets yet: title, phase and round in the header, scores if any. */
  const scores = game && game.scores && typeof game.scores === "object" ? Object.entries(game.scores) : [];
  if (!scores.length) return [];
  return [{ kind: "table", title: "Scores", columns: ["team", "score"], rows: scores.sort((a, b) => b[1] - a[1]) }];
}

function render() {
  setStatus();
  const state = page.state;
  if (!state) {
    $("title").textContent = "Houston"; $("prompt").textContent = "Waiting for the box…";
    for (const id of ["phase", "round", "turn", "reveal"]) show($(id), false);
    $("widgets").replaceChildren();
    renderLog();
    return;
  }
  const game = currentGame(state);
  const shownGame = game ? game.game || "" : "";
  if (shownGame !== page.shownGame) {  // another game (or none): a refusal about the old one goes
    page.shownGame = shownGame;
    clearTimeout(page.refusalTimer);
    show($("refusal"), false);
  }
  renderHeader(state, game);
  renderTurn(state, game);
  $("prompt").textContent = state.prompt ? state.prompt.text : "";
  renderReveal(state, game);
  const widgets = game ? (Array.isArray(game.widgets) ? game.widgets : renderFallback(game)) : [];
  drawWidgets($("widgets"), widgets, "public");
  renderLog();
  renderTeamView();
  document.body.dataset.seq = String(state.seq ?? "");
  document.body.dataset.game = game ? game.game || "" : "";
  fit();
}

/* The game log (retained topic): this game's public events, newest first. */
function renderLog() {
  const list = $("log");
  const state = page.state;
  const game = currentGame(state);
  const wanted = game ? game.game : state && state.mode === "idle" ? state.selected : null;
  const log = page.log && page.log.game && page.log.game === wanted ? page.log : null;
  const lines = log ? (log.lines || []).slice().reverse() : [];
  list.replaceChildren(...lines.map((l) => el("li", { class: `log-${l.type || "say"}`, "data-seq": String(l.seq ?? "") }, l.text)));
  $("log-title").textContent = log && log.title ? `${log.title}: so far` : "This game";
  show($("log-box"), lines.length > 0);
}

/* A team's own screen (?team=red&user=red&pass=...): its private view, drawn from its widgets. */
function renderTeamView() {
  const box = $("private");
  const data = page.teamData;
  const view = data && data.view;
  const state = page.state;
  const game = currentGame(state);
  // never show a view of another game than the one on the table (e.g. retained from before a restart)
  const fresh = Boolean(view && game && (!view.game || view.game === game.game));
  if (!show(box, Boolean(fresh))) { box.replaceChildren(); delete page.shown.team; return; }
  box.style.setProperty("--c", teamColour(data.team));
  const head = el("h2", {}, `Team ${teamName(data.team)} only`);
  const body = el("div", { class: "widgets private-widgets" });
  const widgets = Array.isArray(view.widgets) ? view.widgets : sentencesOf(view);
  drawWidgets(body, widgets, "team");
  box.replaceChildren(head, body);
  box.dataset.game = view.game || "";
}

/* A view without widgets, as cards and sentences (not a dump of keys). */
function sentencesOf(view) {
  const widgets = [];
  const lines = [];
  for (const [key, value] of Object.entries(view)) {
    if (["game", "team", "schema", "seq"].includes(key) || value === null || value === false || value === "") continue;
    if (Array.isArray(value)) {
      if (!value.length) continue;
      if (typeof value[0] === "object") {
        widgets.push({ kind: "cards", title: capital(key), items: value.map((c) => ({
          id: c.id, name: c.name || c.id || "", text: Object.entries(c).filter(([k]) => !["id", "name"].includes(k))
            .map(([k, v]) => `${words(k)} ${words(v)}`).join(", ") })) });
      } else lines.push(`${capital(key)}: ${value.map(words).join(", ")}`);
    } else if (value === true) lines.push(`${capital(key)}.`);
    else if (typeof value !== "object") lines.push(`${capital(key)}: ${words(value)}`);
  }
  if (lines.length) widgets.unshift({ kind: "log", title: "", lines: lines.reverse() });
  return widgets;
}

/* On a landscape screen (a TV cannot scroll) size the type so the page fills one screen and no more. */
function overflows() {
  const root = document.documentElement;
  let bottom = 0;
  for (const node of document.querySelectorAll("header, #turn, main section, main [data-kind]")) {
    if (node.offsetParent !== null) bottom = Math.max(bottom, node.getBoundingClientRect().bottom);
  }
  return root.scrollHeight > innerHeight || bottom > innerHeight - 2;
}

function fit() {
  const root = document.documentElement;
  root.style.setProperty("--fit", "1");
  if (innerWidth <= innerHeight) return;
  let scale = 1;
  if (!overflows()) {
    // room to spare (a short view on a big TV): grow the type until the next step would not fit
    for (let i = 0; i < 6; i++) {
      root.style.setProperty("--fit", (scale * 1.08).toFixed(3));
      if (overflows()) break;
      scale *= 1.08;
    }
    root.style.setProperty("--fit", scale.toFixed(3));
  }
  for (let i = 0; i < 16 && overflows(); i++) {
    scale *= 0.92;
    root.style.setProperty("--fit", scale.toFixed(3));
  }
  root.dataset.fit = scale.toFixed(3);
}

function showRefusal(text) {
  const node = $("refusal");
  node.textContent = text;
  show(node, true);
  clearTimeout(page.refusalTimer);
  page.refusalTimer = setTimeout(() => { show(node, false); fit(); }, REFUSAL_MS);
  fit();
}

function onMessage(topic, payload, base) {
  const text = new TextDecoder().decode(payload);
  if (topic === `${base}/availability`) {
    if (text !== page.online) page.onlineSince = Date.now();
    page.online = text; setStatus(); return;
  }
  let data = null;
  if (text.length) { try { data = JSON.parse(text); } catch (err) { return; } }
  // an empty (retained) message clears the topic: empty what it showed
  if (topic === `${base}/state`) { page.state = data; render(); }
  else if (topic === `${base}/log`) { page.log = data; renderLog(); if (page.state) renderReveal(page.state, currentGame(page.state)); fit(); }
  else if (topic === `${base}/team/${page.team}`) { page.teamData = data; renderTeamView(); fit(); }
  else if (topic === `${base}/events` && data && data.type === "error" && data.text) showRefusal(data.text);
}

async function loadConfig() {
  const params = new URLSearchParams(location.search);
  let config = {};
  try { config = await (await fetch("config.json", { cache: "no-store" })).json(); } catch (err) { config = {}; }
  return {
    box: params.get("box") || config.box || "houston-1",
    url: params.get("ws") || config.ws_url || `ws://${location.hostname || "localhost"}:${config.ws_port || 9001}`,
    username: params.get("user") || config.username || "dashboard",
    password: params.get("pass") || config.password || "",
    team: params.get("team") || "",
  };
}

function refusedLogin(err) {
  const code = err && (err.code ?? (err.returnCode));
  return code === 4 || code === 5 || code === 134 || code === 135 || /password|not authori[sz]ed/i.test(String(err && err.message));
}

async function main() {
  const config = await loadConfig();
  const base = `houston/${config.box}`;
  page.base = base;
  page.team = config.team;
  setStatus();
  const client = mqtt.connect(config.url, {
    username: config.username, password: config.password, reconnectPeriod: 2000, connectTimeout: 5000,
    clientId: `dashboard-${Math.random().toString(16).slice(2, 10)}`,
  });
  page.client = client;
  client.on("connect", () => {
    setConn("up");
    const topics = [`${base}/state`, `${base}/log`, `${base}/events`, `${base}/availability`];
    if (config.team) topics.push(`${base}/team/${config.team}`);
    client.subscribe(topics, { qos: 1 });
  });
  client.on("error", (err) => { if (refusedLogin(err)) setConn("auth"); });
  for (const gone of ["close", "offline"]) {
    client.on(gone, () => { if (!client.connected && page.conn !== "auth") setConn("down"); });
  }
  client.on("message", (topic, payload) => onMessage(topic, payload, base));
  addEventListener("resize", fit);
}

main();
