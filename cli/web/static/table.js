// The web table's page: draws the view the server computed for this link's seat, lets the
// player click the cell or card an option names (or the option in the list), and long-polls
// for changes. Every text from the server is set as text, never as HTML. Pieces that cover
// several cells and placements are drawn and chosen in pieces.js.
"use strict";

const token = decodeURIComponent(location.pathname.split("/").pop());
const api = (path) => `/api/${encodeURIComponent(token)}/${path}`;
let view = null;          // the latest view of now
let past = null;          // a past position being looked at, or null

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else if (key === "style") node.setAttribute("style", value);
    else node[key] = value;
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function setText(id, text) {
  const node = document.getElementById(id);
  node.textContent = text || "";
  node.hidden = !text;
}

// ------------------------------------------------------------------ talking to the server
async function post(action, body) {
  const answer = await fetch(api(action), {method: "POST", headers: {"Content-Type": "application/json"},
                                           body: JSON.stringify(body)});
  const data = await answer.json().catch(() => ({error: `the server answered ${answer.status}`}));
  if (!answer.ok) {
    setText("failure", data.error);
    await refresh();
    return null;
  }
  setText("failure", "");
  return data;
}

async function refresh() {
  const answer = await fetch(api("view"));
  if (answer.ok) show(await answer.json());
}

async function poll() {
  for (;;) {
    try {
      const after = view ? `?after=${view.version}` : "";
      const answer = await fetch(api("view") + after);
      if (answer.status === 404) { document.getElementById("status").textContent = "No table at this link."; return; }
      if (answer.ok) show(await answer.json());
      else await sleep(1000);
    } catch (error) {
      document.getElementById("status").textContent = "The server cannot be reached; trying again…";
      await sleep(1500);
    }
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ------------------------------------------------------------------ drawing
function show(data, again = false) {
  if (view && data.version === view.version && !again) return;      // the long poll and a refresh both brought it
  const shownBefore = view && view.epoch === data.epoch ? view.shows.length : null;
  view = data;
  document.body.dataset.mine = Boolean(mine(data));
  document.body.dataset.move = data.move;
  document.body.dataset.version = data.version;
  document.body.dataset.finished = data.finished;
  const title = data.title + (data.variant ? ` (${data.variant})` : "");
  document.getElementById("title").textContent = title;
  document.title = title;
  setText("brief", data.brief);
  drawStatus(data);
  drawOptions(data);
  drawTools(data);
  drawVars(data);
  drawScores(data.scores);
  drawHistory(data);
  drawLog(data.log);
  setText("result", data.result);
  if (data.failure) setText("failure", data.failure);
  const links = document.getElementById("link-list");
  links.replaceChildren();
  for (const [seat, link] of Object.entries(data.links || {})) {
    const url = `${location.origin}/t/${link}`;
    links.append(el("li", {}, el("span", {text: `${data.players[seat].name}: `}), el("a", {href: url, text: url})));
  }
  document.getElementById("links").hidden = !data.links || data.humans.length < 2;
  if (!past) drawBoard(data, document.getElementById("board"));
  coverBetweenSeats(data);
  // A `show` of the rules just happened (a round won, say): the table as it was shown stays
  // on the board, as the terminal pauses on it, until the player moves or goes back to now.
  // (Not when the table shown is the table now: a round's end that took nothing away.)
  if (shownBefore !== null && data.shows.length > shownBefore) travel({show: data.shows.length - 1, changed: true});
}

// Hot-seat at the table link with cards only their owner may see: when the device passes to
// another human seat, the table is covered until that player asks to see it.
let lastEyes = null;
function coverBetweenSeats(data) {
  const passing = data.link === "table" && data.private && data.humans.length > 1 && mine(data)
    && lastEyes !== null && data.seat !== lastEyes;
  if (mine(data)) lastEyes = data.seat;
  if (!passing) return;
  document.getElementById("cover-text").textContent = `Pass the device to ${data.players[data.seat].name}.`;
  document.getElementById("cover").hidden = false;
}
document.getElementById("uncover").onclick = () => { document.getElementById("cover").hidden = true; };

function mine(data) {
  const d = data.decision;
  return d && d.options ? d : null;
}

function drawStatus(data) {
  const status = document.getElementById("status");
  const name = (p) => data.players[p].name;
  let text = `Move ${data.move}, turn ${data.turn}. `;
  if (data.finished) text += "The game is over.";
  else if (mine(data)) text += `${name(data.decision.player)}, your move.`;
  else if (data.decision) {
    const p = data.decision.player;
    text += data.players[p].plays === "human" ? `Waiting for ${name(p)}.` : `${name(p)} (${data.players[p].plays}) is thinking…`;
  }
  if (data.sealed) {
    const names = (seats) => seats.map(name).join(", ") || "nobody";
    text += ` Sealed choices made by ${names(data.sealed.chosen)}` + (data.sealed.yours ? `; yours: ${data.sealed.yours}.` : ".");
  }
  status.textContent = text;
}

function drawOptions(data) {
  const box = document.getElementById("options");
  box.replaceChildren();
  document.getElementById("chooser").hidden = true;
  const d = mine(data);
  document.getElementById("prompt").textContent = d ? d.prompt : "";
  drawPlacer(d);
  if (!d) return;
  const button = (option) => previewing(el("button", {type: "button", class: "option", text: option.label, title: option.id,
                                                      "data-index": option.index, "data-id": option.id,
                                                      onclick: () => choose(option.index)}), option);
  const groups = piecesOf(d);
  for (const option of d.options.filter((o) => !o.placement)) box.append(button(option));
  for (const [piece, options] of groups) {       // placements: one folded group per piece
    const group = el("details", {class: "option-group", "data-piece": piece},
                     el("summary", {text: `${d.pieces[piece].label} (${options.length})`}));
    group.append(...options.map(button));
    box.append(group);
  }
}

async function choose(index) {
  if (past) backToNow();
  document.getElementById("chooser").hidden = true;
  setText("hint-text", "");
  const sent = await post("choose", {move: view.move, option: index});
  if (sent) await refresh();
}

function drawTools(data) {
  const undo = document.getElementById("undo"), redo = document.getElementById("redo");
  undo.disabled = !data.can_undo;
  redo.disabled = !data.can_redo;
  undo.onclick = async () => { if (past) backToNow(); if (await post("undo", {move: view.move})) await refresh(); };
  redo.onclick = async () => { if (past) backToNow(); if (await post("redo", {move: view.move})) await refresh(); };
  const hint = document.getElementById("hint");
  hint.disabled = !mine(data);
  hint.onclick = async () => {
    setText("hint-text", "Thinking…");
    const answer = await post("hint", {move: view.move});
    setText("hint-text", answer ? answer.hint : "");
  };
  const save = document.getElementById("save");
  save.hidden = !data.can_save;
  save.href = api("save");
  document.getElementById("load-label").hidden = !data.can_save;
}

function drawVars(data) {
  const table = document.getElementById("vars");
  table.replaceChildren();
  document.getElementById("vars-box").hidden = !data.vars.length;
  const perPlayer = data.vars.filter((v) => v.per_player);
  if (perPlayer.length) {
    table.append(el("tr", {}, el("th"), ...data.players.map((p) => el("th", {text: p.name + (p.plays === "human" ? "" : ` (${p.plays})`)}))));
    for (const v of perPlayer) {
      table.append(el("tr", {"data-var": v.name}, el("th", {text: v.title}), ...v.per_player.map((x) => el("td", {text: x}))));
    }
  }
  for (const v of data.vars.filter((v) => !v.per_player)) {
    table.append(el("tr", {"data-var": v.name}, el("th", {text: v.title}), el("td", {text: v.value, colSpan: data.players.length})));
  }
}

// Each player's score lines now, as this seat may know them ("?": hangs on what it cannot see).
function drawScores(scores) {
  const table = document.getElementById("scores");
  table.replaceChildren();
  document.getElementById("scores-box").hidden = !scores;
  if (!scores) return;
  table.append(el("tr", {}, el("th"), ...scores.players.map((p) => el("th", {text: p.name}))));
  scores.titles.forEach((title, i) => {
    table.append(el("tr", {"data-line": title}, el("th", {text: title}), ...scores.players.map((p) => el("td", {text: p.lines[i]}))));
  });
  table.append(el("tr", {class: "total"}, el("th", {text: "Total"}), ...scores.players.map((p) => el("td", {text: p.total}))));
  document.getElementById("scores-note").hidden = !scores.players.some((p) => p.total === "?");
}

function drawHistory(data) {
  const list = document.getElementById("history");
  list.replaceChildren();
  for (const m of data.history) {
    const text = `${m.name}: ${m.prompt ? m.prompt + " → " : ""}${m.label}`;
    list.append(el("li", {}, el("button", {type: "button", class: "step", text, "data-step": m.step,
                                           onclick: () => travel({step: m.step})})));
  }
  for (const s of data.shows) {
    list.append(el("li", {class: "shown"}, el("button", {type: "button", class: "show", text: `★ ${s.title}`,
                                                         "data-show": s.index, onclick: () => travel({show: s.index})})));
  }
  const range = document.getElementById("travel");
  range.max = data.move;
  if (!past) range.value = data.move;
  range.oninput = () => (Number(range.value) === view.move ? backToNow() : travel({step: Number(range.value)}));
  list.scrollTop = list.scrollHeight;
}

function drawLog(lines) {
  const log = document.getElementById("log");
  log.replaceChildren(...lines.map((line) => el("li", {text: line})));
  log.scrollTop = log.scrollHeight;
}

// While a look at the past is being fetched the body says `data-travelling`, so that whoever
// drives the page (the browser tests) can wait until the board it sees is the one that stays.
let travelling = 0;
async function travel(which) {
  travelling += 1;
  document.body.dataset.travelling = true;
  try {
    await lookAtThePast(which);
  } finally {
    travelling -= 1;
    if (!travelling) delete document.body.dataset.travelling;
  }
}

async function lookAtThePast(which) {
  const query = which.show !== undefined ? `show=${which.show}` : `step=${which.step}`;
  const answer = await fetch(api("past") + "?" + query);
  if (!answer.ok) return;
  const then = await answer.json();
  if (which.changed && JSON.stringify(then.zones) === JSON.stringify(view.zones)) return;
  past = then;
  document.getElementById("travel").value = past.step;
  document.getElementById("past-text").textContent = past.shown
    ? `As the table was shown: ${past.shown} (after move ${past.step}). View only.`
    : `The table after move ${past.step} of ${view.move}. View only.`;
  document.getElementById("past-banner").hidden = false;
  document.body.classList.add("in-past");
  drawBoard(past, document.getElementById("board"));
}

function backToNow() {
  past = null;
  document.getElementById("past-banner").hidden = true;
  document.body.classList.remove("in-past");
  if (view) show(view, true);
}
document.getElementById("back-to-now").onclick = backToNow;

// ------------------------------------------------------------------ the board
function drawBoard(data, board) {
  board.replaceChildren();
  const d = past ? null : mine(data);
  const targets = new Map();      // "zone|cell" or "zone|#pos" or "zone|top" -> options
  fits = fitsOf(d);
  const picked = d && placing.piece !== null;
  for (const option of d ? d.options : []) {
    if (picked && option.placement) continue;     // the picked piece's fits are laid by pointing
    for (const t of targetsOf(option)) {
      const key = `${t.zone}|${t.cell !== undefined ? t.cell : t.top ? "top" : "#" + t.pos}`;
      if (!targets.has(key)) targets.set(key, []);
      targets.get(key).push(option);
    }
  }
  const shared = data.zones.filter((z) => z.owner === null);
  board.append(zoneGroup("Table", shared, targets, data));
  for (const player of data.players) {
    const own = data.zones.filter((z) => z.owner === player.seat);
    if (!own.length) continue;
    const you = player.seat === data.seat ? " (you)" : "";
    const group = zoneGroup(`${player.name}${you}`, own, targets, data);
    group.dataset.seat = player.seat;
    if (data.current === player.seat) group.classList.add("current");
    board.append(group);
  }
  if (placing.hover) preview(placing.hover);
}

function zoneGroup(title, zones, targets, data) {
  const group = el("section", {class: "group"}, el("h2", {text: title}));
  for (const zone of zones) {
    if (zone.kind !== "grid" && !zone.size) continue;     // an empty pile or stack, hidden or not
    group.append(drawZone(zone, targets));
  }
  return group;
}

function drawZone(zone, targets) {
  const box = el("div", {class: `zone ${zone.kind}`, "data-zone": zone.key});
  const heading = el("h3", {text: zone.name.replace(/_/g, " ")});
  box.append(heading);
  if (zone.hidden) {
    heading.append(el("span", {class: "count", text: zone.top ? ` ${zone.size}, the top face up` : ` ${zone.size} face down`}));
    if (zone.top) {
      const card = drawCard(zone.top, false);
      card.dataset.top = "true";
      clickable(card, targets.get(`${zone.key}|top`));
      box.append(card);
    }
    return box;
  }
  if (zone.kind === "grid") {
    if (zone.extent) heading.append(el("span", {class: "count", text: ` (at most ${zone.extent[0]} x ${zone.extent[1]})`}));
    box.append(drawGrid(zone, targets));
  }
  else {
    heading.append(el("span", {class: "count", text: ` ${zone.size}`}));
    const row = el("div", {class: "cards"});
    const described = zone.items.length <= DESCRIBED_AT_MOST;
    zone.items.forEach((item, pos) => {
      const card = drawCard(item, false);
      if (described && item.details) card.append(el("div", {class: "details", text: item.details}));
      card.dataset.pos = pos;
      const piece = pieceLying(`${zone.key}|#${pos}`);
      if (piece !== null) pickable(card, piece);
      else clickable(card, targets.get(`${zone.key}|#${pos}`));
      row.append(card);
    });
    box.append(row);
  }
  return box;
}

// A pile or stack of at most this many cards shows each card's data `details` under its
// label (a display's costs), not only when the pointer rests on it.
const DESCRIBED_AT_MOST = 6;

// A component: its glyph in a grid cell (where its kind draws one), else its label's lines.
function drawCard(look, inCell = true) {
  const card = el("div", {class: "card", title: look.details || look.label});
  if (look.colour) { card.style.setProperty("--c", look.colour); card.classList.add("coloured"); }
  const lines = (inCell && look.glyph) || look.label.split("\n");
  for (const line of lines) card.append(el("div", {class: "line", text: line}));
  return card;
}

// A grid: every cell of its bounds, the top of each stack drawn, the stack's height shown.
// A piece that covers several cells is drawn once over its cells (outlinePieces, pieces.js),
// and the "+n" of a stack under it over the piece.
function drawGrid(zone, targets) {
  const grid = el("div", {class: "cells"});
  if (!zone.bounds) { grid.append(el("p", {class: "empty", text: "(empty)"})); return grid; }
  const pieces = zone.pieces || [];
  const covered = new Set(pieces.flatMap((p) => p.cells));
  const [x0, y0, x1, y1] = zone.bounds;
  grid.style.gridTemplateColumns = `auto repeat(${x1 - x0 + 1}, minmax(3.2em, max-content))`;
  const byCell = new Map(zone.cells.map((c) => [c.cell, c]));
  const counts = [];          // "+n" of the stacks under a piece
  const blocked = new Set(zone.blocked);
  grid.append(el("div", {class: "axis"}));
  for (let x = x0; x <= x1; x++) grid.append(el("div", {class: "axis", text: x}));
  for (let y = y0; y <= y1; y++) {
    grid.append(el("div", {class: "axis", text: y}));
    for (let x = x0; x <= x1; x++) {
      const key = `${x},${y}`;
      const cell = el("div", {class: "cell", "data-cell": key});
      const here = byCell.get(key);
      if (blocked.has(key)) cell.classList.add("blocked");
      if (covered.has(key)) cell.classList.add("covered");
      if (here && here.stack.length) {
        const top = here.stack[here.stack.length - 1];
        if (!covered.has(key)) cell.append(drawCard(top));
        if (here.stack.length > 1) {
          const under = {cell: key, text: `+${here.stack.length - 1}`,
                         title: "under it: " + here.stack.slice(0, -1).map((s) => s.label).join(", ")};
          if (covered.has(key)) counts.push(under);     // drawn over the piece (outlinePieces)
          else cell.append(el("span", {class: "under", text: under.text, title: under.title}));
        }
      }
      if (fits.has(`${zone.key}|${key}`)) layable(cell, zone.key, key);
      else clickable(cell, targets.get(`${zone.key}|${key}`));
      grid.append(cell);
    }
  }
  if (!pieces.length) return grid;
  const framed = el("div", {class: "framed"}, grid);
  new ResizeObserver(() => outlinePieces(framed, grid, pieces, counts)).observe(grid);
  return framed;
}

// Clicking a cell or card takes the option it names; several options: the player picks one.
function clickable(node, options) {
  if (!options || !options.length) return;
  node.classList.add("target");
  node.tabIndex = 0;
  node.title = options.map((o) => o.label).join(" / ");
  const take = () => {
    if (options.length === 1) return choose(options[0].index);
    const box = document.getElementById("chooser-options");
    box.replaceChildren(...options.map((o) => previewing(el("button", {type: "button", class: "option", text: o.label,
                                                                      "data-index": o.index, onclick: () => choose(o.index)}), o)));
    document.getElementById("chooser").hidden = false;
  };
  node.onclick = take;
  node.onkeydown = (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); take(); } };
}

// ------------------------------------------------------------------ loading a save
document.getElementById("load").onchange = async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  const answer = await fetch(api("load"), {method: "POST", headers: {"Content-Type": "application/json"},
                                           body: await file.text()});
  const data = await answer.json().catch(() => ({}));
  setText("failure", answer.ok ? "" : data.error || `the server answered ${answer.status}`);
  event.target.value = "";
  await refresh();
};

poll();
