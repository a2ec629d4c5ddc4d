// The web table's pieces that cover several cells and its placements (table.js draws the
// rest and calls these): each piece drawn as one outlined unit over the grid, and a decision
// among placements made by picking a piece, turning it and pointing at the board. Everything
// comes from the view's data (a grid's pieces, the options' placement values), nothing from
// the game.
"use strict";

// A decision among placements (piece, turn, cells): pick the piece (a button, or its group in
// the list), point at the board to see the cells the fit over that cell would cover, R turns
// the piece (the orientations it fits in), N shows the next fit over the same cell; a click
// lays the piece as shown. All of it from the options' values, nothing from the game.
const SVG = "http://www.w3.org/2000/svg";
let placing = {move: -1, piece: null, turn: 0, shift: 0, hover: null};
let fits = new Map();           // "zone|cell" -> the picked piece's placements over it, in this turn

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

// The picked piece's placements in the orientation at hand, by the "zone|cell" each covers.
function fitsOf(d) {
  const found = new Map();
  for (const option of d && placing.piece !== null ? pickedPlacements(d) : []) {
    for (const {zone, cell} of targetsOf(option)) {
      const key = `${zone}|${cell}`;
      if (!found.has(key)) found.set(key, []);
      found.get(key).push(option);
    }
  }
  return found;
}

function drawPlacer(d) {
  const box = document.getElementById("placer");
  const groups = piecesOf(d);
  if (!d || placing.move !== view.move || (placing.piece !== null && !groups.has(placing.piece))) {
    placing = {move: view.move, piece: null, turn: 0, shift: 0, hover: null};     // a new decision
  }
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

// Each piece that covers several cells as one unit: one filled outline around its cells, over
// the grid (the cells below it still take clicks), its colour from its data; then, over all
// the pieces, the "+n" of each stack a piece lies on (`counts`: {cell, text, title}).
function outlinePieces(framed, grid, pieces, counts = []) {
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
  const above = document.createElementNS(SVG, "g");
  above.setAttribute("class", "under-counts");
  for (const {cell, text, title} of counts) {
    const node = grid.querySelector(`[data-cell="${cell}"]`);
    if (!node) continue;
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("class", "under");
    label.dataset.cell = cell;
    label.setAttribute("x", node.offsetLeft + node.offsetWidth - 2);
    label.setAttribute("y", node.offsetTop + node.offsetHeight - 2);
    label.textContent = text;
    const tip = document.createElementNS(SVG, "title");
    tip.textContent = title;
    label.append(tip);
    above.append(label);
  }
  svg.append(above);
  framed.querySelector("svg.pieces")?.remove();
  framed.append(svg);
}
