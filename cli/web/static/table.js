// The web table's page: draws the view the server computed for this link's seat, lets the
// player click the cell or card an option names (or the option in the list), and long-polls
// for changes. Every text from the server is set as text, never as HTML.
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
  document.getElementById("chooser").hidden = true;
  setText("hint-text", "");
  const sent = await post("choose", {move: view.move, option: index});
  if (sent) await refresh();
}

function drawTools(data) {
  const undo = document.getElementById("undo"), redo = document.getElementById("redo");
  undo.disabled = !data.can_undo;
  redo.disabled = !data.can_redo;
  undo.onclick = async () => { if (await post("undo", {move: view.move})) await refresh(); };
  redo.onclick = async () => { if (await post("redo", {move: view.move})) await refresh(); };
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

async function travel(which) {
  const query = which.show !== undefined ? `show=${which.show}` : `step=${which.step}`;
  const answer = await fetch(api("past") + "?" + query);
  if (!answer.ok) return;
  past = await answer.json();
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
  fits = new Map();
  const picked = d && placing.piece !== null ? pickedPlacements(d) : null;
  for (const option of picked || []) {
    for (const zone of option.placement.grids) {
      for (const cell of option.placement.cells) {
        const key = `${zone}|${cell}`;
        if (!fits.has(key)) fits.set(key, []);
        fits.get(key).push(option);
      }
    }
  }
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
    zone.items.forEach((item, pos) => {
      const card = drawCard(item, false);
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

// A component: its glyph in a grid cell (where its kind draws one), else its label's lines.
function drawCard(look, inCell = true) {
  const card = el("div", {class: "card", title: look.details || look.label});
  if (look.colour) { card.style.setProperty("--c", look.colour); card.classList.add("coloured"); }
  const lines = (inCell && look.glyph) || look.label.split("\n");
  for (const line of lines) card.append(el("div", {class: "line", text: line}));
  return card;
}

// A grid: every cell of its bounds, the top of each stack drawn, the stack's height shown.
// Pieces that cover several cells (the shapes of the language, when it has them) are drawn
// at each cell they cover until the view gives their outline.
function drawGrid(zone, targets) {
  const grid = el("div", {class: "cells"});
  if (!zone.bounds) { grid.append(el("p", {class: "empty", text: "(empty)"})); return grid; }
  const pieces = zone.pieces || [];
  const covered = new Set(pieces.flatMap((p) => p.cells));
  const [x0, y0, x1, y1] = zone.bounds;
  grid.style.gridTemplateColumns = `auto repeat(${x1 - x0 + 1}, minmax(3.2em, max-content))`;
  const byCell = new Map(zone.cells.map((c) => [c.cell, c]));
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
          cell.append(el("span", {class: "under", text: `+${here.stack.length - 1}`,
                                  title: "under it: " + here.stack.slice(0, -1).map((s) => s.label).join(", ")}));
        }
      }
      if (fits.has(`${zone.key}|${key}`)) layable(cell, zone.key, key);
      else clickable(cell, targets.get(`${zone.key}|${key}`));
      grid.append(cell);
    }
  }
  if (!pieces.length) return grid;
  const framed = el("div", {class: "framed"}, grid);
  new ResizeObserver(() => outlinePieces(framed, grid, pieces)).observe(grid);
  return framed;
}

// Each piece that covers several cells as one unit: one filled outline around its cells, over
// the grid (the cells below it still take clicks), its colour from its data.
function outlinePieces(framed, grid, pieces) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "pieces");
  svg.setAttribute("width", grid.offsetWidth);
  svg.setAttribute("height", grid.offsetHeight);
  const style = getComputedStyle(grid);
  const gx = parseFloat(style.columnGap) || 0, gy = parseFloat(style.rowGap) || 0;
  for (const piece of pieces) {
    const mine = new Set(piece.cells);
    const has = (x, y) => mine.has(`${x},${y}`);
    let fill = "", line = "";
    for (const key of piece.cells) {
      const node = grid.querySelector(`[data-cell="${key}"]`);
      if (!node) continue;
      const [x, y] = key.split(",").map(Number);
      const l = node.offsetLeft, t = node.offsetTop, r = l + node.offsetWidth, b = t + node.offsetHeight;
      // the fill reaches over the gap to the piece's cells right and below; each outline
      // edge runs along a side with no cell of the piece beyond it, over the gaps at its ends
      fill += `M${l},${t}H${r + (has(x + 1, y) ? gx : 0)}V${b + (has(x, y + 1) ? gy : 0)}H${l}Z`;
      const x0 = l - (has(x - 1, y) ? gx : 0), x1 = r + (has(x + 1, y) ? gx : 0);
      const y0 = t - (has(x, y - 1) ? gy : 0), y1 = b + (has(x, y + 1) ? gy : 0);
      if (!has(x, y - 1)) line += `M${x0},${t}H${x1}`;
      if (!has(x, y + 1)) line += `M${x0},${b}H${x1}`;
      if (!has(x - 1, y)) line += `M${l},${y0}V${y1}`;
      if (!has(x + 1, y)) line += `M${r},${y0}V${y1}`;
    }
    const group = document.createElementNS(SVG, "g");
    group.setAttribute("class", "piece");
    group.dataset.cells = piece.cells.join(" ");
    if (piece.colour) group.style.setProperty("--c", piece.colour);
    const title = document.createElementNS(SVG, "title");
    title.textContent = piece.details || piece.label;
    const body = document.createElementNS(SVG, "path");
    body.setAttribute("class", "fill");
    body.setAttribute("d", fill);
    const edge = document.createElementNS(SVG, "path");
    edge.setAttribute("class", "outline");
    edge.setAttribute("d", line);
    group.append(title, body, edge);
    const first = grid.querySelector(`[data-cell="${piece.cells[0]}"]`);
    if (first) {
      const text = document.createElementNS(SVG, "text");
      text.setAttribute("x", first.offsetLeft + first.offsetWidth / 2);
      text.setAttribute("y", first.offsetTop + first.offsetHeight / 2);
      text.textContent = (piece.glyph || piece.label.split("\n"))[0];
      group.append(text);
    }
    svg.append(group);
  }
  framed.querySelector("svg.pieces")?.remove();
  framed.append(svg);
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

// ------------------------------------------------------------------ laying a piece
// A decision among placements (piece, turn, cells): pick the piece (a button, or its group in
// the list), point at the board to see the cells the fit over that cell would cover, R turns
// the piece (the orientations it fits in), N shows the next fit over the same cell; a click
// lays the piece as shown. All of it from the options' values, nothing from the game.
const SVG = "http://www.w3.org/2000/svg";
let placing = {move: -1, piece: null, turn: 0, shift: 0, hover: null};
let fits = new Map();           // "zone|cell" -> the picked piece's placements over it, in this turn
let shown = null;               // the placement the board shows

function piecesOf(d) {
  const groups = new Map();
  for (const option of d ? d.options : []) {
    if (!option.placement) continue;
    const piece = String(option.placement.piece);
    if (!groups.has(piece)) groups.set(piece, []);
    groups.get(piece).push(option);
  }
  return groups;
}

function turnsOf(d, piece) {
  return [...new Set((piecesOf(d).get(piece) || []).map((o) => o.placement.turn))].sort((a, b) => a - b);
}

function pickedPlacements(d) {
  const turns = turnsOf(d, placing.piece);
  const turn = turns[placing.turn % turns.length];
  return (piecesOf(d).get(placing.piece) || []).filter((o) => o.placement.turn === turn);
}

function drawPlacer(d) {
  const box = document.getElementById("placer");
  const groups = piecesOf(d);
  if (!d || placing.move !== view.move) placing = {move: view.move, piece: null, turn: 0, shift: 0, hover: null};
  box.hidden = !groups.size;
  if (!groups.size) return;
  const list = document.getElementById("placer-pieces");
  list.replaceChildren();
  for (const [piece, options] of groups) {
    const look = d.pieces[piece];
    const turns = turnsOf(d, piece);
    const turn = piece === placing.piece ? turns[placing.turn % turns.length] : turns[0];
    const sample = options.find((o) => o.placement.turn === turn);
    const button = el("button", {type: "button", class: "piece-button", "data-piece": piece, title: look.label,
                                 onclick: () => pick(placing.piece === piece ? null : piece)},
                      shapeIcon(sample.placement.cells, look.colour), el("span", {text: look.label}));
    if (piece === placing.piece) button.classList.add("picked");
    list.append(button);
  }
  const turns = placing.piece === null ? [] : turnsOf(d, placing.piece);
  document.getElementById("turn").disabled = turns.length < 2;
  document.getElementById("next-fit").disabled = placing.piece === null;
  document.getElementById("placer-text").textContent = placing.piece === null
    ? "Pick a piece, then point at the board."
    : `${d.pieces[placing.piece].label}: orientation ${placing.turn % turns.length + 1} of ${turns.length}. ` +
      "Point at a cell to see the fit; R turns, N the next fit; click to lay it.";
}

// The cells of a placement as a small picture (its bounding box, cells filled).
function shapeIcon(cells, colour) {
  const points = cells.map((c) => c.split(",").map(Number));
  const x0 = Math.min(...points.map((p) => p[0])), y0 = Math.min(...points.map((p) => p[1]));
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "shape");
  const w = Math.max(...points.map((p) => p[0])) - x0 + 1, h = Math.max(...points.map((p) => p[1])) - y0 + 1;
  svg.setAttribute("viewBox", `0 0 ${w * 10} ${h * 10}`);
  svg.setAttribute("width", w * 7);
  svg.setAttribute("height", h * 7);
  if (colour) svg.style.setProperty("--c", colour);
  for (const [x, y] of points) {
    const square = document.createElementNS(SVG, "rect");
    square.setAttribute("x", (x - x0) * 10);
    square.setAttribute("y", (y - y0) * 10);
    square.setAttribute("width", 9);
    square.setAttribute("height", 9);
    svg.append(square);
  }
  return svg;
}

// The piece of the placements that lies at "zone|#pos" (a card in a pile), or null.
function pieceLying(where) {
  const d = past ? null : mine(view);
  for (const [piece, look] of Object.entries((d && d.pieces) || {})) {
    if (look.lies && `${look.lies.zone}|#${look.lies.pos}` === where) return piece;
  }
  return null;
}

// A card of a piece the placements lay: a click picks the piece (again: puts it down).
function pickable(card, piece) {
  card.classList.add("target", "pickable");
  if (piece === placing.piece) card.classList.add("picked");
  card.tabIndex = 0;
  card.dataset.piece = piece;
  const take = () => pick(placing.piece === piece ? null : piece);
  card.onclick = take;
  card.onkeydown = (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); take(); } };
}

function pick(piece, turnBy = 0) {
  if (piece !== placing.piece) placing = {...placing, piece, turn: 0, shift: 0};
  else placing = {...placing, turn: placing.turn + turnBy, shift: 0};
  drawPlacer(mine(view));
  if (!past) drawBoard(view, document.getElementById("board"));
}

// The fit the board shows over a cell: the picked piece's placements in this turn that cover
// it, the one centred nearest the cell first (N steps on).
function fitOver(where) {
  const options = fits.get(where) || [];
  if (!options.length) return null;
  const [x, y] = where.split("|")[1].split(",").map(Number);
  const off = (o) => {
    const cells = o.placement.cells.map((c) => c.split(",").map(Number));
    const cx = cells.reduce((s, c) => s + c[0], 0) / cells.length, cy = cells.reduce((s, c) => s + c[1], 0) / cells.length;
    return (cx - x) ** 2 + (cy - y) ** 2;
  };
  const order = [...options].sort((a, b) => off(a) - off(b) || a.index - b.index);
  return {option: order[placing.shift % order.length], count: order.length, at: placing.shift % order.length};
}

function preview(where) {
  if (where !== placing.hover) placing.shift = 0;      // N counts over one cell
  placing.hover = where;
  const fit = fitOver(where);
  showCells(fit ? fit.option : null);
  if (fit) {
    document.getElementById("placer-fit").textContent =
      `${fit.option.label}` + (fit.count > 1 ? ` (fit ${fit.at + 1} of ${fit.count} over this cell: N for the next)` : "");
  }
}

// The cells and cards an option names: a placement, its cells in each of its grids.
function targetsOf(option) {
  const p = option.placement;
  return p ? p.grids.flatMap((zone) => p.cells.map((cell) => ({zone, cell}))) : option.targets;
}

// Mark the cells an option names (a placement's cells, else its targets) on the board.
function showCells(option) {
  for (const node of document.querySelectorAll("#board .preview")) node.classList.remove("preview");
  shown = option;
  if (!option) return;
  for (const {zone, cell} of targetsOf(option).filter((t) => t.cell !== undefined)) {
    const node = document.querySelector(`#board .zone[data-zone="${CSS.escape(zone)}"] .cell[data-cell="${cell}"]`);
    if (node) node.classList.add("preview");
  }
}

function previewing(button, option) {
  button.onmouseenter = button.onfocus = () => showCells(option);
  button.onmouseleave = button.onblur = () => showCells(null);
  return button;
}

// A cell the picked piece can be laid over: pointing shows the fit, a click lays it.
function layable(cell, zone, key) {
  const where = `${zone}|${key}`;
  cell.classList.add("target", "fit");
  cell.tabIndex = 0;
  cell.onmouseenter = cell.onfocus = () => preview(where);
  const lay = () => {
    const fit = fitOver(where);
    if (fit) choose(fit.option.index);
  };
  cell.onclick = () => {
    if (placing.hover !== where) preview(where);      // a click without pointing first (touch)
    lay();
  };
  cell.onkeydown = (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); lay(); } };
}

document.getElementById("turn").onclick = () => pick(placing.piece, 1);
document.getElementById("next-fit").onclick = () => { placing.shift += 1; if (placing.hover) preview(placing.hover); };
document.addEventListener("keydown", (event) => {
  if (placing.piece === null || past || event.target.tagName === "INPUT") return;
  if (event.key === "r" || event.key === "R") pick(placing.piece, 1);
  else if (event.key === "n" || event.key === "N") { placing.shift += 1; if (placing.hover) preview(placing.hover); }
  else if (event.key === "Escape") pick(null);
});

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
