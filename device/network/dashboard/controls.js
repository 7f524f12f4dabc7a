/* The `controls` widget kind: a form per command a private audience may send (a game runner's
 * numbers: damage N to a figure, activate a group, enter XP, end the scenario...).
 *
 * A game's team view declares {kind: "controls", title, forms: [{command, label, fields: [{name,
 * type: "number"|"choice", min, options}]}]}. Each form's send button publishes a `choose` command
 * whose option is the command and the fields joined by ':' (e.g. "damage:orion:3:receive:1:4") on
 * this user's own command topic, houston/<box>/cmd/<user>/choose — the broker lets only this
 * user write there, so the box knows who sent it — and shows the box's reply beside the form. The
 * box checks everything again (the same validation and replies as a button); this page only keeps
 * a phone from sending what is plainly not a number.
 *
 * Registered in window.HOUSTON_WIDGETS (dashboard.js draws widget kinds through that registry).
 * Text from the box is inserted with textContent, never as HTML. */
"use strict";

(function () {
  const MAX_PENDING = 20;
  const MAX_OPTION = 64;
  const ctl = { client: null, base: "", user: "", values: {}, replies: {}, pending: [], seq: 0, connecting: null };

  function node(tag, props = {}, ...children) {
    const n = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") n.className = value;
      else if (key.startsWith("data-") || key.startsWith("aria-")) n.setAttribute(key, value);
      else n[key] = value;
    }
    for (const child of children) if (child !== null && child !== undefined) n.append(child);
    return n;
  }

  async function settings() {
    const params = new URLSearchParams(location.search);
    let config = {};
    try { config = await (await fetch("config.json", { cache: "no-store" })).json(); } catch (err) { config = {}; }
    return {
      box: params.get("box") || config.box || "houston-1",
      url: params.get("ws") || config.ws_url || `ws://${location.hostname || "localhost"}:9001`,
      username: params.get("user") || config.username || "dashboard",
      password: params.get("pass") || config.password || "",
    };
  }

  function connect() {
    if (ctl.connecting) return ctl.connecting;
    ctl.connecting = settings().then((cfg) => {
      ctl.base = `houston/${cfg.box}`;
      ctl.user = cfg.username;
      const client = mqtt.connect(cfg.url, {
        username: cfg.username, password: cfg.password, reconnectPeriod: 2000, connectTimeout: 5000,
        clientId: `controls-${Math.random().toString(16).slice(2, 10)}`,
      });
      client.on("connect", () => client.subscribe(`${ctl.base}/cmd/${ctl.user}/+/reply`, { qos: 1 }));
      client.on("message", onReply);
      ctl.client = client;
      return client;
    });
    return ctl.connecting;
  }

  function showReply(command) {
    const text = ctl.replies[command] || "";
    document.querySelectorAll("output[data-reply]").forEach((out) => {
      if (out.dataset.reply === command) {
        out.textContent = text.text || "";
        out.dataset.status = text.status || "";
      }
    });
  }

  function onReply(topic, payload) {
    let data;
    try { data = JSON.parse(new TextDecoder().decode(payload)); } catch (err) { return; }
    if (!data || typeof data !== "object") return;
    const i = ctl.pending.findIndex((p) => p.transaction === data.transaction);
    if (i < 0) return;
    const { command } = ctl.pending[i];
    ctl.pending.splice(i, 1);
    const ok = data.status === "ok";
    ctl.replies[command] = { status: ok ? "ok" : "error", text: ok ? "done" : String(data.message || data.error || "refused") };
    showReply(command);
  }

  async function send(command, option) {
    const client = await connect();
    const transaction = `${command}-${++ctl.seq}`;
    ctl.pending.push({ transaction, command });
    if (ctl.pending.length > MAX_PENDING) ctl.pending.shift();
    ctl.replies[command] = { status: "sent", text: "sent…" };
    showReply(command);
    client.publish(`${ctl.base}/cmd/${ctl.user}/choose`, JSON.stringify({ option, transaction }), { qos: 1 });
  }

  function fieldInput(form, field) {
    const key = `${form.command}|${field.name}`;
    const label = String(field.name || "");
    let input;
    if (field.type === "choice") {
      const options = Array.isArray(field.options) ? field.options.map(String) : [];
      input = node("select", { name: label, "aria-label": label }, ...options.map((o) => node("option", { value: o }, o)));
      if (options.includes(ctl.values[key])) input.value = ctl.values[key];
    } else {
      input = node("input", { type: "number", name: label, "aria-label": label, inputMode: "numeric", step: "1",
                              min: Number.isFinite(field.min) ? String(field.min) : "0", required: true });
      input.value = ctl.values[key] !== undefined ? ctl.values[key] : (Number.isFinite(field.min) ? String(field.min) : "0");
    }
    input.addEventListener("input", () => { ctl.values[key] = input.value; });
    input.addEventListener("change", () => { ctl.values[key] = input.value; });
    return node("label", { class: "control-field" }, node("span", {}, label), input);
  }

  function values(formNode, form) {
    const parts = [String(form.command)];
    for (const field of Array.isArray(form.fields) ? form.fields : []) {
      const input = formNode.elements.namedItem(String(field.name));
      const value = input ? String(input.value).trim() : "";
      if (field.type !== "choice") {
        const min = Number.isFinite(field.min) ? field.min : 0;
        if (!/^[0-9]{1,3}$/.test(value) || Number(value) < min) return { error: `${field.name}: a whole number from ${min}` };
      }
      if (!value || value.includes(":")) return { error: `${field.name}: choose a value` };
      parts.push(value);
    }
    const option = parts.join(":");
    if (option.length > MAX_OPTION) return { error: "too long" };
    return { option };
  }

  function render(widget) {
    const forms = Array.isArray(widget.forms) ? widget.forms : [];
    const section = node("section", { class: "widget controls", "data-kind": "controls" },
                         node("h3", {}, String(widget.title || "Controls")));
    for (const form of forms) {
      if (!form || typeof form.command !== "string") continue;
      const command = form.command;
      const out = node("output", { "data-reply": command, "aria-live": "polite" });
      const formNode = node("form", { class: "control", "data-command": command, noValidate: true },
        node("h4", {}, String(form.label || command)),
        ...(Array.isArray(form.fields) ? form.fields : []).map((f) => fieldInput(form, f)),
        node("button", { type: "submit" }, "Send"), out);
      formNode.addEventListener("submit", (event) => {
        event.preventDefault();
        const { option, error } = values(formNode, form);
        if (error) { ctl.replies[command] = { status: "error", text: error }; showReply(command); return; }
        send(command, option);
      });
      section.append(formNode);
      const reply = ctl.replies[command];
      if (reply) { out.textContent = reply.text; out.dataset.status = reply.status; }
    }
    connect();
    return section;
  }

  /* Phone-sized forms: one field per row, big touch targets, the reply in colour. Kept here so
   * the kind stays one file. */
  const STYLE = `
    .controls form.control { display: grid; grid-template-columns: auto 1fr; gap: .35rem .6rem;
      align-items: center; margin: .5rem 0; padding-top: .5rem; border-top: 1px solid #30363d; }
    .controls form.control h4 { grid-column: 1 / -1; margin: 0; }
    .controls .control-field { display: contents; }
    .controls input, .controls select { font-size: 1rem; min-height: 2.4rem; min-width: 0; }
    .controls button { grid-column: 1 / -1; min-height: 2.6rem; font-size: 1rem; }
    .controls output { grid-column: 1 / -1; min-height: 1.2em; }
    .controls output[data-status=error] { color: #ff7b72; }
    .controls output[data-status=ok] { color: #7ee787; }`;
  if (!document.getElementById("controls-style")) {
    const style = document.createElement("style");
    style.id = "controls-style";
    style.textContent = STYLE;
    document.head.append(style);
  }

  window.HOUSTON_WIDGETS = window.HOUSTON_WIDGETS || {};
  window.HOUSTON_WIDGETS.controls = render;
})();
