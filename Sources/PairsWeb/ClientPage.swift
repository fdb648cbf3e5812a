/// The browser client: one HTML document with its CSS and JavaScript inline, compiled into the binary so a
/// server needs no files installed, and no URL outside the server it came from.
///
/// It speaks protocol.md's JSON messages over `new WebSocket("ws://" + location.host + "/ws")`, one message
/// per text frame, and is a whole game client: a lobby (name, quick match, a named room, the rules of a new
/// room, the room list with join and watch), the board (cards that flip over, matched cards marked with
/// their taker's colour and symbol), players, scores and turn, the turn clock, the last events in words,
/// chat, rematch and leave, and the result. It reconnects by itself and resumes its seat with the token it
/// keeps in `sessionStorage`.
///
/// Stable hooks for tests and scripts: every card element has `data-card` (its index) and `data-state`
/// (`down`, `up` or `matched`); `/?room=NAME&name=NAME` joins that room, `/?watch=NAME` watches it.
///
/// The JavaScript is written so the variants can extend it without restructuring: the rules form is built
/// from the `RULES` list, players and cards are rendered for arrays of any length, and events describe
/// `cards` of any length.
public enum ClientPage {
    /// The document, served at `/`.
    public static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Pairs</title>
<link rel="icon" href="data:,">
<style>
:root {
  --bg: #f6f5f1; --panel: #ffffff; --fg: #1d1d1f; --muted: #62626a; --line: #d4d2cc;
  --back: #33507a; --back-2: #2a4365; --back-fg: #e8eef8; --face: #fffdf7;
  --p0: #1f6feb; --p1: #c2410c; --p2: #15803d; --p3: #9333ea; --alert: #b42318; --on-primary: #ffffff;
  font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg);
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #15161a; --panel: #1f2127; --fg: #ececf1; --muted: #a0a0ab; --line: #3a3c44;
    --back: #2c3e5c; --back-2: #22324b; --back-fg: #c9d6ec; --face: #2a2c33;
    --p0: #6ea8fe; --p1: #fb923c; --p2: #4ade80; --p3: #c084fc; --alert: #f97066; --on-primary: #0b1220;
  }
}
* { box-sizing: border-box; }
body { margin: 0; padding: 12px; max-width: 1100px; margin-inline: auto; line-height: 1.4; }
header { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; }
h1 { font-size: 1.4rem; margin: 0; }
h2 { font-size: 1.05rem; margin: 16px 0 8px; display: flex; gap: 8px; align-items: center; }
.muted, #connection { color: var(--muted); font-size: .9rem; }
button, input, select { font: inherit; color: inherit; }
button { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; min-height: 44px; cursor: pointer; }
button.primary { background: var(--p0); border-color: var(--p0); color: var(--on-primary); font-weight: 600; }
button:disabled { opacity: .55; cursor: default; }
input, select { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; min-height: 44px; min-width: 0; }
label { display: flex; flex-direction: column; gap: 4px; font-size: .9rem; }
form.row, .row { display: flex; gap: 8px; align-items: flex-end; flex-wrap: wrap; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 12px; padding: 12px; margin-top: 12px; }
#notice { min-height: 1.2em; color: var(--alert); font-weight: 600; margin: 4px 0; }
#rules-fields { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 8px; margin-top: 8px; }
#rooms { list-style: none; margin: 0; padding: 0; }
#rooms li { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 8px 0; border-top: 1px solid var(--line); }
#rooms li:first-child { border-top: none; }
.room-name { font-weight: 600; }
.room-info { flex: 1 1 180px; }
#game { display: grid; gap: 12px; grid-template-columns: minmax(0, 1fr); }
@media (min-width: 860px) { #game { grid-template-columns: minmax(0, 3fr) minmax(260px, 2fr); } #side { grid-row: span 2; } }
#players { display: flex; flex-wrap: wrap; gap: 8px; }
.player { flex: 1 1 140px; display: flex; justify-content: space-between; gap: 8px; padding: 8px 10px; border: 2px solid var(--line); border-left: 8px solid var(--seat); border-radius: 10px; background: var(--panel); }
.player.turn { border-color: var(--seat); font-weight: 700; }
.player.away { opacity: .6; }
.score { font-size: 1.3rem; font-weight: 700; font-variant-numeric: tabular-nums; }
#status { font-size: 1.1rem; font-weight: 600; margin: 8px 0; display: flex; gap: 12px; flex-wrap: wrap; align-items: baseline; }
#clock { font-variant-numeric: tabular-nums; color: var(--muted); }
#clock.low { color: var(--alert); }
/* As wide as the column allows, but no taller than the window: cards are 3:4, so rows x cols fit both ways. */
#board { display: grid; grid-template-columns: repeat(var(--cols, 4), minmax(0, 1fr)); gap: clamp(4px, 1.2vw, 10px);
  max-width: min(calc(var(--cols, 4) * 120px), calc((100vh - 250px) * var(--cols, 4) / var(--rows, 4) * .75)); min-width: min(100%, 280px); }
.card { aspect-ratio: 3 / 4; padding: 0; border: none; background: none; min-height: 0; perspective: 700px; border-radius: 10px; }
.card:focus-visible { outline: 3px solid var(--p0); outline-offset: 2px; }
.inner { position: relative; display: block; width: 100%; height: 100%; transition: transform .4s ease; transform-style: preserve-3d; }
.card[data-state="up"] .inner, .card[data-state="matched"] .inner { transform: rotateY(180deg); }
.back, .front { position: absolute; inset: 0; display: flex; flex-direction: column; align-items: center; justify-content: center; border-radius: 10px; backface-visibility: hidden; -webkit-backface-visibility: hidden; }
.back { background: repeating-linear-gradient(45deg, var(--back), var(--back) 6px, var(--back-2) 6px, var(--back-2) 12px); color: var(--back-fg); font-weight: 700; font-size: clamp(.8rem, 3.2vw, 1.2rem); }
.num { background: var(--back-2); border-radius: 6px; padding: 0 6px; }
.front { transform: rotateY(180deg); background: var(--face); border: 3px solid var(--fg); font-weight: 700; font-size: clamp(.75rem, 3.4vw, 1.3rem); }
.card[data-state="matched"] .front { border: 3px dashed var(--taker); background: color-mix(in srgb, var(--taker) 22%, var(--face)); }
.mark { font-size: .8em; color: var(--taker); }
#typed { font-variant-numeric: tabular-nums; color: var(--muted); }
#controls { display: flex; gap: 8px; flex-wrap: wrap; margin-bottom: 10px; }
ol.log { list-style: none; margin: 0; padding: 0; font-size: .92rem; }
ol.log li { padding: 3px 0; border-top: 1px solid var(--line); }
ol.log li:first-child { border-top: none; }
#chat-log { max-height: 14em; overflow-y: auto; }
.from { font-weight: 700; }
@media (prefers-reduced-motion: reduce) { .inner { transition: none; } }
[hidden] { display: none !important; }
</style>
</head>
<body>
<header><h1>Pairs</h1><span id="connection" role="status">connecting…</span></header>
<p id="notice" role="alert"></p>

<main>
<section id="lobby" hidden>
  <form id="name-form" class="row">
    <label>Your name <input id="name" maxlength="24" autocomplete="nickname" placeholder="player"></label>
  </form>
  <div class="panel">
    <div class="row">
      <button id="quick" class="primary" type="button">Quick match</button>
      <form id="room-form" class="row">
        <label>Room <input id="room" maxlength="32" pattern="[A-Za-z0-9_\-]{1,32}" placeholder="kitchen" required></label>
        <button type="submit">Join or create</button>
      </form>
    </div>
    <details id="rules">
      <summary>Rules for a new room</summary>
      <p class="muted">Used when your join creates the room; empty fields take the server's defaults.</p>
      <div id="rules-fields"></div>
    </details>
  </div>
  <h2>Rooms <button id="refresh" type="button">Refresh</button></h2>
  <ul id="rooms"></ul>
</section>

<section id="game" hidden>
  <div id="main">
    <div id="players"></div>
    <p id="status"><span id="status-text"></span><span id="clock"></span></p>
    <div id="controls">
      <button id="rematch" type="button" class="primary" hidden>Rematch</button>
      <button id="leave" type="button">Leave</button>
    </div>
    <div id="board"></div>
    <p class="muted">Tap a card, or type its number and Enter. <span id="typed"></span></p>
    <p id="series" class="muted"></p>
  </div>
  <div id="side">
    <div class="panel"><h2>What happened</h2><ol id="events" class="log" aria-live="polite"></ol></div>
    <div class="panel">
      <h2>Chat</h2>
      <ol id="chat-log" class="log" aria-live="polite"></ol>
      <form id="chat-form" class="row"><input id="chat-input" maxlength="200" placeholder="say something" aria-label="chat message" style="flex:1"><button type="submit">Send</button></form>
    </div>
  </div>
</section>
</main>

<script>
"use strict";
// Pairs in the browser: the JSON messages of protocol.md over a WebSocket, one message per text frame.

const $ = (id) => document.getElementById(id);
const SYMBOLS = ["●", "▲", "■", "◆", "★", "✚"];
const MAX_EVENTS = 8;
const LIST_EVERY_MS = 5000; // how often the lobby's room list is refreshed
const PING_WAIT_MS = 4000; // how long a socket may take to answer a ping when the page is shown again

// Rule options of `join`, used when the join creates the room. A variant adds a line here.
const RULES = [
  { key: "pairs", label: "Pairs", type: "number", min: 2, max: 32, hint: "8" },
  { key: "turn_seconds", label: "Turn clock (s, 0 = none)", type: "number", min: 0, max: 3600, hint: "30" },
  { key: "reveal_ms", label: "Mismatch shown (ms)", type: "number", min: 0, max: 60000, hint: "1000" },
  { key: "again_on_match", label: "A match plays again", type: "choice", choices: [["", "default"], ["true", "yes"], ["false", "no"]] },
];

const params = new URLSearchParams(location.search);
const S = {
  ws: null, stopped: false, retry: 0, retryTimer: 0, listTimer: 0, pingTimer: 0,
  name: params.get("name") || localStorage.getItem("pairs.name") || "",
  token: sessionStorage.getItem("pairs.token"),
  watching: sessionStorage.getItem("pairs.watch"),
  intent: params.get("watch") ? { type: "watch", room: params.get("watch") }
        : params.get("room") ? { type: "join", room: params.get("room") } : null,
  room: null, seat: null, state: null, names: [], cards: [],
  deadline: null, typed: "", rematchGame: null,
};

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

function send(message) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(message));
}

let noticeTimer = 0;
function notice(text) {
  $("notice").textContent = text;
  clearTimeout(noticeTimer);
  if (text) noticeTimer = setTimeout(() => { $("notice").textContent = ""; }, 6000);
}

// --- Connection: reconnect by itself, resume the seat with the token kept for this tab ---

function connect() {
  clearTimeout(S.retryTimer);
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(scheme + location.host + "/ws");
  S.ws = ws;
  $("connection").textContent = "connecting…";
  ws.onmessage = (event) => {
    if (S.ws !== ws) return; // a socket given up for a newer one
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    const handler = handlers[message.type];
    if (handler) handler(message);
  };
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.ws = null;
    if (S.stopped) return;
    const delay = Math.min(5000, 300 * 2 ** S.retry++);
    $("connection").textContent = "offline, reconnecting…";
    S.retryTimer = setTimeout(connect, delay);
  };
}

// A phone that locked its screen may come back to a dead socket that has not noticed yet: reconnect at
// once if it is closed, and give it up for a new one if it does not answer a ping.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible" || S.stopped) return;
  if (!S.ws) return connect();
  send({ type: "ping" });
  clearTimeout(S.pingTimer);
  S.pingTimer = setTimeout(() => {
    const silent = S.ws;
    S.ws = null;
    if (silent) silent.close();
    connect();
  }, PING_WAIT_MS);
});

function keepToken(token, watching) {
  S.token = token;
  S.watching = watching;
  if (token) sessionStorage.setItem("pairs.token", token); else sessionStorage.removeItem("pairs.token");
  if (watching) sessionStorage.setItem("pairs.watch", watching); else sessionStorage.removeItem("pairs.watch");
}

function joinRequest(room) {
  const request = { type: "join" };
  if (room) request.room = room;
  for (const rule of RULES) {
    const value = $("rule-" + rule.key).value.trim();
    if (value === "") continue;
    request[rule.key] = rule.type === "number" ? Number(value) : value === "true";
  }
  return request;
}

const handlers = {
  welcome(m) {
    if (m.name !== undefined || m.id !== undefined) return; // the answer to our hello
    S.retry = 0;
    $("connection").textContent = "connected to " + m.server;
    if (S.name) send({ type: "hello", name: S.name });
    if (S.token) send({ type: "resume", token: S.token });
    else if (S.watching) send({ type: "watch", room: S.watching });
    else if (S.intent) send(S.intent.type === "join" ? joinRequest(S.intent.room) : S.intent);
    else showLobby();
  },
  pong() {
    clearTimeout(S.pingTimer);
  },
  joined(m) {
    if (m.room !== S.room) {
      // A new room starts with empty logs; a resumed seat keeps what the page had already shown.
      S.state = null;
      $("events").replaceChildren();
      $("chat-log").replaceChildren();
    }
    S.room = m.room;
    S.seat = m.seat;
    S.intent = null;
    keepToken(m.token, m.token ? null : m.room);
    showGame();
  },
  state(m) {
    if (m.room !== S.room) return;
    narrate(m);
    S.state = m;
    S.names = m.players.map((player, seat) => (player ? player.name : S.names[seat]));
    render(m);
  },
  left() {
    leaveRoom();
  },
  rooms(m) {
    renderRooms(m);
  },
  chat(m) {
    const who = m.seat === null ? m.from + " (watching)" : SYMBOLS[m.seat % SYMBOLS.length] + " " + m.from;
    const log = $("chat-log");
    log.append(el("li", {}, el("span", { class: "from" }, who + ": "), m.text));
    log.scrollTop = log.scrollHeight;
  },
  error(m) {
    if (m.code === "bad_token") {
      keepToken(null, null);
      notice("Your seat is gone: the game ended or the server restarted.");
      if (S.intent) send(S.intent.type === "join" ? joinRequest(S.intent.room) : S.intent); else showLobby();
      return;
    }
    if (["room_full", "no_such_room", "bad_room"].includes(m.code) && !S.room) {
      S.intent = null;
      keepToken(null, null);
      showLobby();
    }
    notice(m.message);
  },
  bye(m) {
    if (m.reason === "replaced") {
      S.stopped = true;
      $("connection").textContent = "This game goes on in another window.";
    } else if (m.reason === "quit") {
      S.stopped = true;
    }
  },
};

// --- Lobby ---

function showLobby() {
  $("lobby").hidden = false;
  $("game").hidden = true;
  $("name").value = S.name;
  send({ type: "list" });
  clearInterval(S.listTimer);
  S.listTimer = setInterval(() => { if (document.visibilityState === "visible") send({ type: "list" }); }, LIST_EVERY_MS);
}

function showGame() {
  clearInterval(S.listTimer);
  $("lobby").hidden = true;
  $("game").hidden = false;
}

function leaveRoom() {
  S.room = S.seat = S.state = null;
  S.names = [];
  keepToken(null, null);
  history.replaceState(null, "", location.pathname);
  showLobby();
}

function renderRooms(m) {
  const items = m.rooms.map((room) => el("li", {},
    el("span", { class: "room-info" },
      el("span", { class: "room-name" }, room.room), " ",
      el("span", { class: "muted" }, [room.phase, room.pairs + " pairs", room.players.map((name) => name ?? "free seat").join(" vs "),
        room.spectators ? room.spectators + " watching" : null].filter(Boolean).join(" · "))),
    room.players.includes(null) ? el("button", { type: "button", onclick: () => send(joinRequest(room.room)) }, "Join") : null,
    el("button", { type: "button", onclick: () => send({ type: "watch", room: room.room }) }, "Watch")));
  if (items.length === 0) items.push(el("li", { class: "muted" }, "No rooms yet: start one."));
  if (m.total > m.rooms.length) items.push(el("li", { class: "muted" }, m.total - m.rooms.length + " more rooms"));
  $("rooms").replaceChildren(...items);
}

function setName(value) {
  const name = value.trim();
  if (!name || name === S.name) return;
  S.name = name;
  localStorage.setItem("pairs.name", name);
  send({ type: "hello", name });
}

$("name-form").addEventListener("submit", (event) => { event.preventDefault(); setName($("name").value); });
$("name").addEventListener("change", () => setName($("name").value));
$("quick").addEventListener("click", () => { setName($("name").value); send(joinRequest(null)); });
$("room-form").addEventListener("submit", (event) => {
  event.preventDefault();
  setName($("name").value);
  send(joinRequest($("room").value.trim()));
});
$("refresh").addEventListener("click", () => send({ type: "list" }));
$("rules-fields").append(...RULES.map((rule) => el("label", {}, rule.label, rule.type === "number"
  ? el("input", { id: "rule-" + rule.key, type: "number", min: rule.min, max: rule.max, placeholder: rule.hint, inputmode: "numeric" })
  : el("select", { id: "rule-" + rule.key }, ...rule.choices.map(([value, text]) => el("option", { value }, text))))));

// --- Game ---

function nameOf(seat, state = S.state) {
  if (seat === S.seat) return "You";
  const player = state && state.players[seat];
  return (player && player.name) || S.names[seat] || "player " + (seat + 1);
}

function symbolOf(seat) {
  return SYMBOLS[seat % SYMBOLS.length];
}

function render(state) {
  renderPlayers(state);
  renderBoard(state);
  $("status-text").textContent = statusText(state);
  S.deadline = state.turn_ms_left === null || state.turn_ms_left === undefined ? null : performance.now() + state.turn_ms_left;
  tickClock();
  const playing = state.phase === "over" && S.seat !== null;
  $("rematch").hidden = !playing;
  $("rematch").disabled = S.rematchGame === state.game;
  $("rematch").textContent = S.rematchGame === state.game ? "Rematch asked" : "Rematch";
  $("leave").textContent = S.seat === null ? "Stop watching" : "Leave";
  const wins = state.series.wins.map((count, seat) => (S.names[seat] || "player " + (seat + 1)) + " " + count);
  $("series").textContent = "Room " + state.room + " · game " + state.game + " · series: " + wins.join(", ") + ", draws " + state.series.draws;
  document.title = (state.phase === "playing" && state.turn === S.seat ? "Your turn · " : "") + "Pairs";
}

function renderPlayers(state) {
  $("players").replaceChildren(...state.players.map((player, seat) => {
    if (!player) return el("div", { class: "player away", style: "--seat: var(--line)" }, symbolOf(seat) + " free seat");
    const onTurn = state.turn === seat && (state.phase === "playing" || state.phase === "reveal");
    return el("div", { class: "player" + (onTurn ? " turn" : "") + (player.connected ? "" : " away"), "data-seat": seat, style: "--seat: var(--p" + (seat % 4) + ")" },
      el("span", {}, (onTurn ? "▶ " : "") + symbolOf(seat) + " " + player.name + (seat === S.seat ? " (you)" : "") + (player.connected ? "" : " · away")),
      el("span", { class: "score", "aria-label": "score" }, String(player.score)));
  }));
}

function makeCard(index) {
  const face = el("span", { class: "face" });
  const mark = el("span", { class: "mark" });
  const node = el("button", { type: "button", class: "card", "data-card": index, "data-state": "down", onclick: () => flip(index) },
    el("span", { class: "inner" },
      el("span", { class: "back" }, el("span", { class: "num" }, String(index))),
      el("span", { class: "front" }, face, mark)));
  return { node, face, mark, timer: 0 };
}

function renderBoard(state) {
  const board = $("board");
  board.style.setProperty("--cols", state.cols);
  board.style.setProperty("--rows", state.rows);
  if (S.cards.length !== state.cards.length) {
    S.cards = state.cards.map((_, index) => makeCard(index));
    board.replaceChildren(...S.cards.map((card) => card.node));
  }
  state.cards.forEach((card, index) => updateCard(S.cards[index], card, index));
}

function updateCard(card, data, index) {
  const node = card.node;
  node.dataset.state = data.state;
  clearTimeout(card.timer);
  if (data.state === "down") {
    // Keep the face while the card turns back over, then forget it: a face-down card shows nothing.
    card.timer = setTimeout(() => { card.face.textContent = ""; card.mark.textContent = ""; }, 450);
    node.style.removeProperty("--taker");
    node.setAttribute("aria-label", "card " + index + ", face down");
    return;
  }
  card.face.textContent = data.face;
  if (data.state === "matched") {
    node.style.setProperty("--taker", "var(--p" + (data.by % 4) + ")");
    card.mark.textContent = "✓ " + symbolOf(data.by);
    node.setAttribute("aria-label", "card " + index + ", " + data.face + ", taken by " + nameOf(data.by));
  } else {
    node.style.removeProperty("--taker");
    card.mark.textContent = "";
    node.setAttribute("aria-label", "card " + index + ", " + data.face + ", face up");
  }
}

function statusText(state) {
  switch (state.phase) {
    case "waiting": return (state.game > 0 ? "A seat is free." : "Waiting for a player.") + " Invite someone: " + location.origin + "/?room=" + encodeURIComponent(state.room);
    case "playing": return state.turn === S.seat ? "Your turn: pick a card" : nameOf(state.turn) + "'s turn";
    case "reveal": return "No match: the cards turn back in a moment";
    case "over": return resultText(state);
    default: return state.phase;
  }
}

function resultText(state) {
  const scores = state.players.map((player) => (player ? player.score : 0)).join(" - ");
  if (state.winner === null) return "Draw, " + scores;
  if (S.seat === null) return nameOf(state.winner) + " won, " + scores;
  return (state.winner === S.seat ? "You won, " : "You lost, ") + scores;
}

function tickClock() {
  const clock = $("clock");
  if (S.deadline === null) { clock.textContent = ""; return; }
  const seconds = Math.max(0, Math.ceil((S.deadline - performance.now()) / 1000));
  clock.textContent = "⏱ " + Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  clock.classList.toggle("low", seconds <= 5);
}
setInterval(tickClock, 250);

function flip(index) {
  const state = S.state;
  if (!state) return;
  if (S.seat === null) return notice("You are watching this game.");
  if (state.phase !== "playing") return;
  if (state.turn !== S.seat) return notice("Wait: it is " + nameOf(state.turn) + "'s turn.");
  if (!state.cards[index] || state.cards[index].state !== "down") return notice("Card " + index + " is not face down.");
  send({ type: "flip", card: index });
}

// What each event says, in words. `cards` may list any number of cards (variants turn three).
function describe(state) {
  const event = state.event;
  if (!event) return null;
  const who = event.seat === null || event.seat === undefined ? "" : nameOf(event.seat, state);
  const faces = (event.cards || []).map((index) => state.cards[index] && state.cards[index].face).filter(Boolean);
  const set = faces.every((face) => face === faces[0]) ? faces[0] : faces.join(" + ");
  const face = state.cards[event.card] && state.cards[event.card].face;
  switch (event.kind) {
    case "join": return who + " sat down";
    case "start": return "Game " + state.game + " started: " + (event.seat === S.seat ? "you go" : who + " goes") + " first";
    case "flip": return who + " turned card " + event.card + (face ? " (" + face + ")" : "");
    case "match": return who + " found a match (" + set + ")";
    case "mismatch": return who + " turned card " + event.card + ": no match (" + faces.join(" / ") + ")";
    case "hide": return "Cards " + (event.cards || []).join(" and ") + " turned back";
    case "timeout": return who + " ran out of time";
    case "over": return who + " took the last match (" + set + "): game over";
    case "forfeit": return who + " gave the game up";
    case "leave": return who + " left";
    case "disconnect": return who + " lost the connection";
    case "reconnect": return who + " came back";
    case "rematch": return who + " asked for a rematch";
    default: return event.kind + (who ? " (" + who + ")" : "");
  }
}

function narrate(state) {
  if (S.state && state.seq <= S.state.seq) return;
  const text = describe(state);
  if (!text) return;
  const log = $("events");
  log.append(el("li", {}, text));
  while (log.children.length > MAX_EVENTS) log.firstChild.remove();
}

$("rematch").addEventListener("click", () => {
  S.rematchGame = S.state && S.state.game;
  send({ type: "rematch" });
  render(S.state);
});
$("leave").addEventListener("click", () => {
  const state = S.state;
  const inPlay = state && S.seat !== null && (state.phase === "playing" || state.phase === "reveal");
  if (inPlay && !confirm("Leave and give this game up?")) return;
  send({ type: "leave" });
});
$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("chat-input").value.trim();
  if (text) send({ type: "say", text });
  $("chat-input").value = "";
});

// Keyboard play: type a card's number and Enter, anywhere but in a text field.
document.addEventListener("keydown", (event) => {
  if (!S.state || $("game").hidden || event.ctrlKey || event.metaKey || event.altKey) return;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
  if (/^[0-9]$/.test(event.key) && S.typed.length < 3) S.typed += event.key;
  else if (event.key === "Backspace") S.typed = S.typed.slice(0, -1);
  else if (event.key === "Escape") S.typed = "";
  else if (event.key === "Enter" && S.typed) {
    event.preventDefault();
    flip(Number(S.typed));
    S.typed = "";
  } else return;
  $("typed").textContent = S.typed ? "Card " + S.typed + "…" : "";
});

if (params.get("name")) localStorage.setItem("pairs.name", S.name);
connect();
</script>
</body>
</html>
"""#

    /// The document's bytes, as sent.
    public static let bytes = Array(html.utf8)

    /// A strong validator of the page (RFC 9110 §8.8.3): the hex SHA-1 of its bytes, computed once. It
    /// changes exactly when the page does, so a browser revalidates with `If-None-Match` and gets a 304
    /// until the server is upgraded.
    public static let etag: String = {
        let hex = SHA1.digest(of: bytes).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return "\"\(hex)\""
    }()

    /// The answer to a `GET` or `HEAD` of the page: the page, or 304 when the client's `If-None-Match`
    /// already names it. `Cache-Control: no-cache` lets browsers keep the page but makes them ask each time,
    /// so a new server version is never hidden behind a stale copy.
    public static func response(to request: HTTPRequest) -> HTTPResponse {
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": "no-cache"]
        if isCached(by: request) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.append(name: "Content-Type", value: "text/html; charset=utf-8")
        return HTTPResponse(status: .ok, headers: headers, body: bytes)
    }

    /// Whether the request's `If-None-Match` lists this page's ETag, or `*` (RFC 9110 §13.1.2).
    private static func isCached(by request: HTTPRequest) -> Bool {
        request.headers.values(named: "If-None-Match").contains { value in
            value.split(separator: ",").contains { tag in
                let tag = tag.utf8.trimmingOptionalWhitespace()
                return tag.elementsEqual("*".utf8) || tag.elementsEqual(etag.utf8) || tag.elementsEqual(("W/" + etag).utf8)
            }
        }
    }
}
