/* Houston's dashboard: subscribe to the box's public topics over MQTT/WebSockets and draw them.
 * Everything shown comes from houston/<box>/state (retained), .../events and .../availability;
 * the page logs in as `dashboard`, which the broker lets read nothing else. Text from the box is
 * always inserted with textContent, never as HTML. */
"use strict";

const TEAM_HEX = { red: "#e53935", blue: "#1e88e5", green: "#43a047", yellow: "#fdd835",
                   purple: "#8e24aa", white: "#eeeeee" };
const SHOWN = new Set(["game", "title", "phase", "round", "rounds", "teams", "players", "totals", "disc",
  "dice", "rolls", "result", "modules", "slots", "tray", "void", "captain", "captain_card", "commander",
  "awaiting", "guesses", "waiting_for", "spacewalk", "report", "order", "threatened", "candidates", "deal",
  "winners", "history", "last_round", "min_players", "max_players", "unlockables", "revealed"]);
const MAX_NEWS = 8;

const page = { connected: false, online: null, state: null, news: [] };
const $ = (id) => document.getElementById(id);

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key === "style") node.setAttribute("style", value);
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function colourOf(name, fallback) { return TEAM_HEX[name] || fallback || "#888"; }
function words(text) { return String(text).replace(/_/g, " "); }
function show(node, visible) { node.hidden = !visible; return visible; }

function setStatus() {
  const status = $("status");
  let label = "no connection", kind = "offline";
  if (page.connected && page.online === "online") { label = "live"; kind = "live"; }
  else if (page.connected && page.online === "offline") { label = "box offline"; }
  else if (page.connected) { label = "waiting for box"; kind = "connecting"; }
  status.textContent = label;
  status.className = `status ${kind}`;
  status.dataset.state = kind;
}

function renderTeams(game) {
  const box = $("teams");
  box.replaceChildren();
  let teams = [];
  if (Array.isArray(game.teams)) teams = game.teams.filter((t) => t && typeof t === "object");
  else if (Array.isArray(game.players)) {
    teams = game.players.map((p) => ({ team: p, captain: p === game.commander,
      points: game.totals ? game.totals[p] : undefined }));
  }
  if (!show(box, teams.length > 0)) return;
  const awaited = game.waiting_for || (game.awaiting && game.awaiting.team);
  for (const t of teams) {
    const facts = el("div", { class: "facts" });
    const add = (label, value) => { if (value !== undefined && value !== null) facts.append(el("span", {}, el("b", {}, value), ` ${label}`)); };
    add("astronauts", t.astronauts);
    add("panic tokens", t.tokens);
    add("votes", t.votes);
    add("points", t.points);
    const name = el("div", { class: "name" }, t.team, t.captain ? " " : null,
                    t.captain ? el("span", { class: "badge" }, game.commander ? "commander" : "captain") : null);
    const classes = ["team", t.captain ? "captain" : "", t.team === awaited ? "awaited" : ""].join(" ");
    box.append(el("div", { class: classes, style: `--c: ${colourOf(t.team)}`, "data-team": t.team }, name, facts));
  }
}

function renderDisc(game) {
  const box = $("disc");
  box.replaceChildren();
  const disc = Array.isArray(game.disc) ? game.disc : [];
  if (!show(box, disc.length > 0)) return;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "-50 -50 100 100");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "guessing disc");
  const n = disc.length, r1 = 46, r0 = 26;
  disc.forEach((part, i) => {
    const a0 = (i / n) * 2 * Math.PI - Math.PI / 2, a1 = ((i + 1) / n) * 2 * Math.PI - Math.PI / 2;
    const p = (r, a) => `${(r * Math.cos(a)).toFixed(2)} ${(r * Math.sin(a)).toFixed(2)}`;
    const large = a1 - a0 > Math.PI ? 1 : 0;
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", `M ${p(r0, a0)} L ${p(r1, a0)} A ${r1} ${r1} 0 ${large} 1 ${p(r1, a1)} `
      + `L ${p(r0, a1)} A ${r0} ${r0} 0 ${large} 0 ${p(r0, a0)} Z`);
    path.setAttribute("fill", part.hex || colourOf(part.colour));
    path.setAttribute("stroke", part.commander ? "gold" : "#0d1117");
    path.setAttribute("stroke-width", part.commander ? "2" : "1");
    path.dataset.colour = part.colour;
    svg.append(path);
    const mid = (a0 + a1) / 2, label = document.createElementNS(ns, "text");
    label.setAttribute("x", (36 * Math.cos(mid)).toFixed(2));
    label.setAttribute("y", (36 * Math.sin(mid)).toFixed(2));
    label.textContent = part.rocket ? `${part.total} ▲` : String(part.total ?? "");
    svg.append(label);
  });
  const centre = document.createElementNS(ns, "text");
  centre.setAttribute("x", "0"); centre.setAttribute("y", "0");
  centre.textContent = game.commander ? `${game.commander}` : "";
  svg.append(centre);
  box.append(el("h2", {}, "Guessing disc"), svg);
}

function renderDice(game) {
  const box = $("dice");
  box.replaceChildren();
  const dice = Array.isArray(game.dice) ? game.dice : null;
  if (!show(box, dice !== null)) return;
  box.append(el("h2", {}, "Dice"));
  if (dice.length === 0) box.append(el("span", { class: "waiting" }, "not rolled yet"));
  dice.forEach((face) => box.append(el("span", { class: `die ${face}`, "data-face": face }, words(face))));
  if (game.result) box.append(el("span", { class: "die-result", "data-result": game.result }, words(game.result)));
  if (game.rolls !== undefined) box.append(el("span", { class: "waiting" }, `${game.rolls} rolls`));
}

function cell(label, value, extra = {}) {
  return el("div", { class: `cell ${extra.class || ""}`, style: extra.style || "" },
            el("span", { class: "label" }, label), el("span", { class: "value" }, value));
}

function renderShip(game) {
  const box = $("ship");
  box.replaceChildren();
  const cells = [];
  if (Array.isArray(game.modules)) {
    for (const m of game.modules) {
      cells.push(cell(`module ${m.module}`, m.detached ? "detached" : "attached", { class: m.detached ? "detached" : "" }));
    }
  }
  if (Array.isArray(game.slots)) {
    for (const s of game.slots) {
      const value = s.filled ? (s.open_card ? s.open_card.name : s.team || "filled") : "empty";
      cells.push(cell(`slot ${s.slot}`, value, { class: "slot", style: `--c: ${s.filled ? colourOf(s.team) : "#30363d"}` }));
    }
  }
  if (game.captain_card) cells.push(cell("captain's card", game.captain_card.name));
  if (game.tray !== undefined) cells.push(cell("tokens in tray", game.tray));
  if (game.void !== undefined && typeof game.void === "number") cells.push(cell("in the void", game.void));
  if (game.deal) cells.push(cell("dealt", `${game.deal.dealt} / ${game.deal.cards}`));
  if (game.order) cells.push(cell("order", words(game.order)));
  if (game.threatened) cells.push(cell("threatened", game.threatened, { class: "slot", style: `--c: ${colourOf(game.threatened)}` }));
  if (!show(box, cells.length > 0)) return;
  box.append(...cells);
}

function renderScores(game) {
  const box = $("scores");
  box.replaceChildren();
  const totals = game.totals && typeof game.totals === "object" ? Object.entries(game.totals) : [];
  if (!show(box, totals.length > 0)) return;
  totals.sort((a, b) => b[1] - a[1]);
  const rows = totals.map(([team, points]) => el("tr", { "data-team": team },
    el("td", {}, el("span", { class: "swatch", style: `--c: ${colourOf(team)}` }), team), el("td", {}, points)));
  box.append(el("h2", {}, "Scores"), el("table", {}, el("tbody", {}, ...rows)));
}

function renderResult(game) {
  const box = $("result");
  const winners = (game.result && game.result.winners) || game.winners || [];
  const over = game.phase === "over";
  if (!show(box, over)) return;
  box.textContent = winners.length ? `Winner${winners.length > 1 ? "s" : ""}: ${winners.join(", ")}` : "Game over";
}

function renderDetails(game) {
  const box = $("details");
  box.replaceChildren();
  const rows = Object.entries(game).filter(([k, v]) => !SHOWN.has(k) && v !== null && typeof v !== "object");
  if (!show(box, rows.length > 0)) return;
  const dl = el("dl");
  for (const [k, v] of rows) dl.append(el("dt", {}, words(k)), el("dd", {}, String(v)));
  box.append(el("h2", {}, "Details"), dl);
}

function render() {
  const state = page.state;
  setStatus();
  if (!state) return;
  const game = state.game;
  const titles = Object.fromEntries((state.games || []).map((g) => [g.id, g.title]));
  $("title").textContent = game ? game.title || titles[game.game] || "Houston" : `Houston · ${titles[state.selected] || ""}`;
  $("prompt").textContent = state.prompt ? state.prompt.text : "";
  const phase = $("phase");
  const phaseText = state.mode === "idle" ? (game && game.phase === "over" ? "game over" : "idle") : words(game.phase || "");
  phase.textContent = phaseText;
  phase.dataset.phase = game ? game.phase || "" : "idle";
  show(phase, Boolean(phaseText));
  const round = $("round");
  let roundText = "";
  if (game && game.round !== undefined && game.round !== null) roundText = `round ${game.round}${game.rounds ? ` / ${game.rounds}` : ""}`;
  else if (game && game.spacewalk) roundText = `spacewalk ${game.spacewalk}`;
  round.textContent = roundText;
  show(round, Boolean(roundText));
  const waiting = $("waiting");
  const awaited = game && (game.waiting_for || (game.awaiting && game.awaiting.team));
  waiting.textContent = awaited ? `waiting for ${awaited}` : "";
  show(waiting, Boolean(awaited));
  const g = game || {};
  renderTeams(g); renderDisc(g); renderDice(g); renderShip(g); renderScores(g); renderResult(g); renderDetails(g);
  document.body.dataset.seq = String(state.seq ?? "");
}

function cardList(cards) {
  return el("ul", { class: "cards" }, ...cards.map((c) => el("li", { "data-card": c.id || "" },
    c.name || c.id || String(c), c.role ? el("span", { class: "role" }, ` ${words(c.role)}`) : null)));
}

/* A team's own screen (?team=red&user=red&pass=...): its private view, e.g. its hand. */
function renderTeamView(data) {
  const box = $("private");
  box.replaceChildren();
  const view = data && data.view;
  if (!show(box, Boolean(view))) return;
  box.style.setProperty("--c", colourOf(data.team));
  box.append(el("h2", {}, `Team ${data.team} only`));
  for (const widget of Array.isArray(view.widgets) ? view.widgets : []) {  // kinds another file registers
    const draw = (window.HOUSTON_WIDGETS || {})[widget && widget.kind];
    if (typeof draw === "function") box.append(draw(widget));
  }
  for (const [key, value] of Object.entries(view)) {
    if (key === "game" || key === "team" || key === "widgets") continue;
    if (Array.isArray(value)) box.append(el("h3", {}, words(key)), cardList(value));
    else if (value === null || typeof value !== "object") box.append(el("p", {}, `${words(key)}: ${value}`));
  }
}

function renderNews() {
  const list = $("announcements");
  list.replaceChildren(...page.news.map((n) => el("li", { class: n.type }, n.text)));
}

function onMessage(topic, payload, base) {
  const text = new TextDecoder().decode(payload);
  if (topic === `${base}/availability`) { page.online = text; setStatus(); return; }
  let data;
  try { data = JSON.parse(text); } catch (err) { return; }
  if (topic === `${base}/state`) { page.state = data; render(); }
  else if (topic.startsWith(`${base}/team/`)) renderTeamView(data);
  else if (topic === `${base}/events` && ["say", "prompt", "error"].includes(data.type) && data.text) {
    page.news.unshift({ text: data.text, type: data.type });
    page.news.length = Math.min(page.news.length, MAX_NEWS);
    renderNews();
  }
}

async function loadConfig() {
  const params = new URLSearchParams(location.search);
  let config = {};
  try { config = await (await fetch("config.json", { cache: "no-store" })).json(); } catch (err) { config = {}; }
  return {
    box: params.get("box") || config.box || "houston-1",
    url: params.get("ws") || config.ws_url || `ws://${location.hostname || "localhost"}:9001`,
    username: params.get("user") || config.username || "dashboard",
    password: params.get("pass") || config.password || "",
    team: params.get("team") || "",
  };
}

async function main() {
  const config = await loadConfig();
  const base = `houston/${config.box}`;
  setStatus();
  const client = mqtt.connect(config.url, {
    username: config.username, password: config.password, reconnectPeriod: 2000, connectTimeout: 5000,
    clientId: `dashboard-${Math.random().toString(16).slice(2, 10)}`,
  });
  client.on("connect", () => {
    page.connected = true; setStatus();
    const topics = [`${base}/state`, `${base}/events`, `${base}/availability`];
    if (config.team) topics.push(`${base}/team/${config.team}`);
    client.subscribe(topics, { qos: 1 });
  });
  for (const gone of ["close", "offline", "error"]) client.on(gone, () => { page.connected = client.connected; setStatus(); });
  client.on("message", (topic, payload) => onMessage(topic, payload, base));
}

main();
