// snapdiff playground: calls this server's POST /diff and POST /layout and shows what they answer.
// Everything from a snapshot (ids, titles, member values) reaches the page as text (textContent), never as markup.
"use strict";

// ---------------------------------------------------------------------------------------------------------------
// Small DOM helpers

const $ = (id) => document.getElementById(id);

/** An element with attributes and children; strings become text nodes. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "className") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
const animates = () => !reducedMotion.matches;

// ---------------------------------------------------------------------------------------------------------------
// JSON with positions: the editors' text is sent as written, so the server's byte offsets and JSON paths can be
// found again in it. parseJSON keeps every value's span, numbers' text (ids and exact values), and member order.

const NUMBER = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

class JSONSyntaxError extends Error {
  constructor(message, index) { super(message); this.index = index; }
}

function parseJSON(text) {
  let i = 0;
  const fail = (message) => { throw new JSONSyntaxError(message, i); };
  const space = () => { while (i < text.length && " \t\n\r".includes(text[i])) i++; };
  function string() {
    const start = i++;
    let value = "";
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      const c = text[i];
      if (c === '"') { i++; break; }
      if (c === "\\") {
        const e = text[i + 1];
        const simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" }[e];
        if (simple !== undefined) { value += simple; i += 2; continue; }
        if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)); i += 6; continue;
        }
        fail("invalid escape");
      }
      if (c < " ") fail("control character in string");
      value += c; i++;
    }
    return { kind: "string", value, start, end: i };
  }
  function value() {
    space();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i++; space();
      const members = [];
      if (text[i] === "}") { i++; return { kind: "object", members, start, end: i }; }
      for (;;) {
        space();
        if (text[i] !== '"') fail("expected a member name");
        const key = string();
        space();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        members.push({ name: key.value, keyStart: key.start, value: value() });
        space();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; return { kind: "object", members, start, end: i }; }
        fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++; space();
      const elements = [];
      if (text[i] === "]") { i++; return { kind: "array", elements, start, end: i }; }
      for (;;) {
        elements.push(value());
        space();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; return { kind: "array", elements, start, end: i }; }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (number) {
      i += number[0].length;
      return { kind: "number", text: number[0], integer: !number[2] && !number[3], start, end: i };
    }
    for (const literal of ["true", "false", "null"]) {
      if (text.startsWith(literal, i)) { i += literal.length; return { kind: literal === "null" ? "null" : "boolean", value: literal === "true", start, end: i }; }
    }
    return fail("expected a value");
  }
  const root = value();
  space();
  if (i < text.length) fail("unexpected text after the value");
  return root;
}

const member = (node, name) => node && node.kind === "object" ? node.members.find((m) => m.name === name) : undefined;

/** A number's exact decimal value as one canonical text: 1, 1.0 and 1e0 are all "1e0". */
function canonicalNumber(text) {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  let digits = match[2] + (match[3] || "");
  let exponent = BigInt(match[4] || 0) - BigInt((match[3] || "").length);
  digits = digits.replace(/^0+/, "");
  if (digits === "") return "0";
  const trailing = digits.length - digits.replace(/0+$/, "").length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += BigInt(trailing);
  return `${match[1]}${digits}e${exponent}`;
}

/** A value's canonical text: members in name order, numbers by exact value (content equality as the server has it). */
function canonical(node, skip = []) {
  switch (node.kind) {
    case "object": {
      const members = node.members.filter((m) => !skip.includes(m.name));
      members.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return "{" + members.map((m) => JSON.stringify(m.name) + ":" + canonical(m.value)).join(",") + "}";
    }
    case "array": return "[" + node.elements.map((e) => canonical(e)).join(",") + "]";
    case "string": return JSON.stringify(node.value);
    case "number": return canonicalNumber(node.text);
    case "boolean": return String(node.value);
    default: return "null";
  }
}

/** An id as shown and compared: a string's value, an integer's digits as written. */
function idOf(node) {
  if (!node) return { text: "", type: "missing" };
  if (node.kind === "string") return { text: node.value, type: "string" };
  if (node.kind === "number") return { text: canonicalInteger(node.text), type: "integer" };
  return { text: "", type: node.kind };
}
/** An integer id as the server compares it: `-0` is `0`. */
const canonicalInteger = (text) => (text === "-0" ? "0" : text);
const idKey = (id) => `${id.type}:${id.text}`;
const shownId = (id) => (id.type === "string" ? JSON.stringify(id.text) : id.type === "integer" ? id.text : "null");

// UTF-8 byte offsets (the server's) against string indices (the editor's).
const utf8Length = (text) => new TextEncoder().encode(text).length;
function indexOfByte(text, byteOffset) {
  let bytes = 0;
  let index = 0;
  for (const ch of text) {
    if (bytes >= byteOffset) break;
    const point = ch.codePointAt(0);
    bytes += point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
    index += ch.length;
  }
  return index;
}
function lineAndColumn(text, index) {
  const before = text.slice(0, index);
  const line = before.split("\n").length;
  const column = [...before.slice(before.lastIndexOf("\n") + 1)].length + 1;
  return { line, column };
}

/** The segments of a path the server wrote, e.g. new.sections[2].items[7].id or settings["a b"]. */
function pathSegments(path) {
  const segments = [];
  let i = 0;
  const head = /^[^.[]+/.exec(path);
  if (head) { segments.push(head[0]); i = head[0].length; }
  while (i < path.length) {
    if (path[i] === ".") {
      const name = /^[^.[]+/.exec(path.slice(i + 1));
      segments.push(name ? name[0] : "");
      i += 1 + (name ? name[0].length : 0);
    } else if (path[i] === "[" && path[i + 1] === '"') {
      const node = parseJSONPrefixString(path, i + 1);
      segments.push(node.value);
      i = node.end + 1;
    } else if (path[i] === "[") {
      const close = path.indexOf("]", i);
      segments.push(Number(path.slice(i + 1, close)));
      i = close + 1;
    } else {
      break;
    }
  }
  return segments;
}
function parseJSONPrefixString(text, start) {
  let end = start + 1;
  while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
  return { value: JSON.parse(text.slice(start, end + 1)), end: end + 1 };
}

/**
 * The span [start, end) of the value a path's segments lead to in a parsed text (a member's name included). A name
 * repeated in one object is reported once per repeat, each with the same path: `occurrence` 0 is its second
 * occurrence, 1 its third, and so on.
 */
function spanOf(root, segments, occurrence = 0) {
  let node = root;
  let span = root ? { start: root.start, end: root.end } : null;
  for (const segment of segments) {
    if (!node) return span;
    if (typeof segment === "number" && node.kind === "array" && node.elements[segment]) {
      node = node.elements[segment];
      span = { start: node.start, end: node.end };
    } else if (typeof segment === "string" && node.kind === "object") {
      const found = node.members.filter((m) => m.name === segment);
      if (found.length === 0) return span;
      const chosen = found.length > 1 ? found[Math.min(found.length - 1, 1 + occurrence)] : found[0];
      node = chosen.value;
      span = { start: chosen.keyStart, end: node.end };
    } else {
      return span;
    }
  }
  return span;
}

// ---------------------------------------------------------------------------------------------------------------
// Editors: a textarea with a line-number gutter and the caret's line and column

class Editor {
  constructor(textarea, name) {
    this.textarea = textarea;
    this.name = name;
    this.gutter = textarea.parentElement.querySelector(".gutter");
    this.caret = $(textarea.getAttribute("aria-describedby"));
    const refresh = () => this.refresh();
    textarea.addEventListener("input", refresh);
    textarea.addEventListener("scroll", () => { this.gutter.scrollTop = textarea.scrollTop; });
    for (const event of ["keyup", "click", "select", "focus"]) textarea.addEventListener(event, () => this.showCaret());
  }
  get text() { return this.textarea.value; }
  set text(value) { this.textarea.value = value; this.textarea.setSelectionRange(0, 0); this.textarea.scrollTop = 0; this.refresh(); }
  refresh() {
    const lines = this.text.split("\n").length;
    if (this.lines !== lines) {
      this.lines = lines;
      this.gutter.textContent = Array.from({ length: lines }, (_, k) => k + 1).join("\n") + "\n";
    }
    this.gutter.scrollTop = this.textarea.scrollTop;
    this.showCaret();
  }
  showCaret() {
    const { line, column } = lineAndColumn(this.text, this.textarea.selectionStart);
    this.caret.textContent = `line ${line}, column ${column}`;
  }
  /** Selects [start, end) (string indices), scrolls it into view and focuses the editor. */
  select(start, end) {
    const area = this.textarea;
    area.focus();
    area.setSelectionRange(start, end);
    const { line } = lineAndColumn(this.text, start);
    const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 18;
    area.scrollTop = Math.max(0, (line - 3) * lineHeight);
    this.gutter.scrollTop = area.scrollTop;
    this.showCaret();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// A request body assembled from editors' texts and fixed glue, so that a byte offset maps back to an editor.

class Body {
  constructor() { this.parts = []; }
  add(text, editor = null, editorIndex = 0) { this.parts.push({ text, editor, editorIndex }); return this; }
  get text() { return this.parts.map((p) => p.text).join(""); }
  /** The editor and string index of a byte offset of the body: the nearest editor text, clamped to it. */
  locate(byteOffset) {
    let bytes = 0;
    let last = null;
    for (const part of this.parts) {
      const length = utf8Length(part.text);
      if (part.editor) {
        last = { editor: part.editor, index: part.editorIndex + part.text.length };
        if (byteOffset <= bytes + length) {
          const inside = Math.max(0, byteOffset - bytes);
          return { editor: part.editor, index: part.editorIndex + indexOfByte(part.text, inside) };
        }
      }
      bytes += length;
    }
    return last;
  }
}

async function post(route, body) {
  const response = await fetch(route, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, application/problem+json" },
    body,
  });
  let answer = null;
  try { answer = await response.json(); } catch { answer = null; }
  return { status: response.status, answer };
}

/**
 * Where a 400's byte offset lies in the editors the body was made of. Mostly the server's place; but when an editor
 * is not one whole JSON value (an unclosed bracket), the server reads on into the next editor's text, so the editor
 * that does not parse by itself is named instead, at the place this page's own reader stopped.
 */
function placeOfSyntaxError(body, offset, editors) {
  const place = body.locate(offset);
  const broken = editors.map((editor) => {
    try { parseJSON(editor.text); return null; } catch (error) { return { editor, index: error.index, reason: error.message }; }
  }).find(Boolean);
  if (!broken || (place && place.editor === broken.editor)) return place;
  let placeParses = true;
  if (place) { try { parseJSON(place.editor.text); } catch { placeParses = false; } }
  return place && !placeParses ? place : broken;
}

/** Every path of `snapshot` (`"old"` or `"new"`) where a section or item (`kind`) has the id `id`, read from its editor. */
function placesOfID(editor, snapshot, kind, id) {
  let tree;
  try { tree = parseJSON(editor.text); } catch { return []; }
  const wanted = id === null ? "null:" : typeof id === "number" ? `integer:${canonicalInteger(String(id))}` : `string:${id}`;
  const places = [];
  const sections = member(tree, "sections")?.value;
  const itemsOf = (node, path) => {
    const items = member(node, "items")?.value;
    if (!items || items.kind !== "array") return;
    items.elements.forEach((item, i) => {
      if (idKey(idOf(member(item, "id")?.value)) === wanted) places.push(`${path}.items[${i}]`);
    });
  };
  if (sections && sections.kind === "array") {
    sections.elements.forEach((section, s) => {
      if (kind === "section" && idKey(idOf(member(section, "id")?.value)) === wanted) places.push(`${snapshot}.sections[${s}]`);
      if (kind === "item") itemsOf(section, `${snapshot}.sections[${s}]`);
    });
  } else if (kind === "item") {
    itemsOf(tree, snapshot);
  }
  return places;
}

/**
 * Shows a problem answer in `box`: a 400's place (the caret moves there), a 422's paths and duplicates, each a
 * button that selects the member in the editor that holds it (`resolve(path, occurrence)` finds it, or the control
 * an option's path names).
 */
function showProblem(box, answer, status, body, resolve, editors, placesOf = () => []) {
  const detail = box.querySelector("p");
  const list = box.querySelector("ul");
  list.replaceChildren();
  box.hidden = false;
  if (!answer) { detail.textContent = `HTTP ${status}, without a problem document.`; return; }
  detail.textContent = `${status} ${answer.title || ""}: ${answer.detail || ""}`;
  if (typeof answer.offset === "number" && body) {
    const place = placeOfSyntaxError(body, answer.offset, editors);
    if (place) {
      const { line, column } = lineAndColumn(place.editor.text, place.index);
      const note = place.reason ? ` (${place.editor.name} is not one JSON value by itself: ${place.reason})`
        : typeof answer.line === "number" ? ` (the server's line ${answer.line}, column ${answer.column} count the whole request, the editors joined)` : "";
      const where = el("li", {}, el("button", { type: "button", "data-editor": place.editor.name, "data-line": line, "data-column": column },
        `${place.editor.name}, line ${line}, column ${column}`), note);
      where.querySelector("button").addEventListener("click", () => place.editor.select(place.index, place.index));
      list.append(where);
      place.editor.select(place.index, place.index);
    }
  }
  const pathButton = (path, occurrence = 0) => {
    const button = el("button", { type: "button", "data-path": path }, path);
    button.addEventListener("click", () => {
      const found = resolve(path, occurrence);
      if (found?.control) found.control.focus();
      else if (found) found.editor.select(found.start, found.end);
    });
    return button;
  };
  const seen = new Map();
  for (const error of answer.errors || []) {
    const occurrence = seen.get(error.path) || 0;
    seen.set(error.path, occurrence + 1);
    list.append(el("li", { "data-problem": "error" }, pathButton(error.path, occurrence), ": ", error.message));
  }
  if (answer.errorCount > (answer.errors || []).length) {
    list.append(el("li", {}, `… ${answer.errorCount - answer.errors.length} more`));
  }
  for (const duplicate of answer.duplicates || []) {
    const id = duplicate.id === null ? "null" : JSON.stringify(duplicate.id);
    const local = placesOf(duplicate);
    const paths = local.length >= duplicate.paths.length ? local : duplicate.paths; // the server lists the first 10
    const item = el("li", { "data-problem": "duplicate", "data-duplicate-id": String(duplicate.id) },
      `${duplicate.kind} id ${id} appears ${duplicate.occurrences} times in ${duplicate.snapshot}: `);
    paths.forEach((path, k) => { if (k) item.append(", "); item.append(pathButton(path)); });
    if (duplicate.occurrences > paths.length) item.append(`, … ${duplicate.occurrences - paths.length} more`);
    list.append(item);
  }
  if (answer.duplicateCount > (answer.duplicates || []).length) {
    list.append(el("li", {}, `… ${answer.duplicateCount - answer.duplicates.length} more repeated ids`));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Presets

const homeOld = {
  sections: [
    { id: "banner", title: "Year-end campaign", items: [{ id: "banner-2026-winter", image: "winter-sale.jpg" }] },
    { id: "featured", title: "Featured", items: [
      { id: "f-kyoto", title: "Kyoto in autumn", author: "Aiko" },
      { id: "f-ramen", title: "A ramen guide", author: "Ken" },
      { id: "f-trains", title: "Night trains", author: "Mei" },
    ] },
    { id: "news", title: "News", items: [
      { id: "n-1201", title: "Cherry blossom forecast", likes: 10 },
      { id: "n-1202", title: "A new shinkansen line" },
      { id: "n-1203", title: "Snow in Sapporo" },
    ] },
    { id: "discount", title: "Discounts", items: [
      { id: "d-onsen", title: "Onsen weekend", price: 18000 },
      { id: "d-tea", title: "Tea ceremony", price: 4500 },
    ] },
    { id: "photo", title: "Photos", items: [
      { id: 101, width: 1200, height: 800 },
      { id: 102, width: 800, height: 1200 },
      { id: 103, width: 1000, height: 1000 },
    ] },
  ],
};
const homeNew = {
  sections: [
    { id: "banner", title: "New year campaign", items: [{ id: "banner-2027-new-year", image: "new-year.jpg" }] },
    { id: "featured", title: "Featured", items: [
      { id: "f-trains", title: "Night trains", author: "Mei" },
      { id: "f-kyoto", title: "Kyoto in autumn", author: "Aiko" },
      { id: "n-1203", title: "Snow in Sapporo" },
      { id: "f-ramen", title: "A ramen guide", author: "Ken" },
    ] },
    { id: "discount", title: "Discounts", items: [
      { id: "d-onsen", title: "Onsen weekend", price: 15000 },
      { id: "d-tea", title: "Tea ceremony", price: 4500 },
    ] },
    { id: "news", title: "News", items: [
      { id: "n-1204", title: "Shrine visits at New Year" },
      { id: "n-1201", title: "Cherry blossom forecast", likes: 12 },
    ] },
    { id: "photo", title: "Photos", items: [
      { id: 104, width: 800, height: 1000 },
      { id: 101, width: 1200, height: 800 },
      { id: 103, width: 1000, height: 1000 },
    ] },
  ],
};
const photosOld = { items: [
  { id: 9001, width: 1200, height: 800, likes: 3 }, { id: 9002, width: 800, height: 1200, likes: 10 },
  { id: 9003, width: 1000, height: 1000, likes: 0 }, { id: 9004, width: 3000, height: 1000, likes: 7 },
  { id: 9005, width: 900, height: 1600, likes: 1 }, { id: 9006, width: 1080, height: 1350, likes: 4 },
] };
const photosNew = { items: [
  { id: 9008, width: 1080, height: 1080, likes: 0 }, { id: 9007, width: 1600, height: 900, likes: 0 },
  { id: 9001, width: 1200, height: 800, likes: 5 }, { id: 9002, width: 800, height: 1200, likes: 10 },
  { id: 9004, width: 3000, height: 1000, likes: 7 }, { id: 9003, width: 1000, height: 1000, likes: 2 },
  { id: 9006, width: 1080, height: 1350, likes: 4 },
] };
const chatOld = { sections: [
  { id: "pinned", items: [{ id: "c-family", name: "Family", last: "Dinner at 7?", unread: 0 }] },
  { id: "chats", items: [
    { id: "c-ana", name: "Ana", last: "See you tomorrow", unread: 0 },
    { id: "c-team", name: "Team", last: "Standup moved to 10", unread: 2 },
    { id: "c-bob", name: "Bob", last: "👍", unread: 0 },
    { id: "c-old", name: "Old group", last: "bye", unread: 0 },
  ] },
] };
const chatNew = { sections: [
  { id: "pinned", items: [
    { id: "c-family", name: "Family", last: "Dinner at 7?", unread: 0 },
    { id: "c-team", name: "Team", last: "Release today 🎉", unread: 3 },
  ] },
  { id: "chats", items: [
    { id: "c-bob", name: "Bob", last: "Are you there?", unread: 1 },
    { id: "c-zoe", name: "Zoe", last: "Hi!", unread: 1 },
    { id: "c-ana", name: "Ana", last: "See you tomorrow", unread: 0 },
  ] },
] };
const duplicatesOld = { sections: [
  { id: "featured", items: [{ id: "a1", title: "Kyoto" }, { id: "a2", title: "Ramen" }] },
  { id: "news", items: [{ id: "n1", title: "Forecast" }, { id: "a1", title: "Kyoto again" }] },
] };
const duplicatesNew = { sections: [
  { id: "featured", items: [{ id: "a2", title: "Ramen" }, { id: "a1", title: "Kyoto" }] },
  { id: "news", items: [{ id: "n1", title: "Forecast" }, { id: "n1", title: "Forecast (copy)" }, { id: "n2", title: "Trains" }] },
  { id: "news", items: [{ id: "n3", title: "A section id repeated" }] },
] };

/** Pretty JSON with one array element or one small object per line where it fits. */
function pretty(value, indent = "") {
  const flat = JSON.stringify(value);
  if (flat.length + indent.length <= 100 || value === null || typeof value !== "object") return flat;
  const inner = indent + "  ";
  if (Array.isArray(value)) return "[\n" + value.map((v) => inner + pretty(v, inner)).join(",\n") + "\n" + indent + "]";
  return "{\n" + Object.entries(value).map(([k, v]) => inner + JSON.stringify(k) + ": " + pretty(v, inner)).join(",\n") + "\n" + indent + "}";
}

const diffPresets = [
  { name: "Home screen (banner, featured, news, discount, photos)", old: homeOld, new: homeNew },
  { name: "Photo feed (a bare list)", old: photosOld, new: photosNew },
  { name: "Chat list", old: chatOld, new: chatNew },
  { name: "Duplicate ids", old: duplicatesOld, new: duplicatesNew },
  { name: "Malformed JSON (a missing comma)", oldText: pretty(photosOld), newText: pretty(photosNew).replace("},\n", "}\n") },
];

/** A deterministic photo feed: mixed aspect ratios, captions, and full-width items every `fullEvery`. */
function photoFeed(count, fullEvery, seed) {
  let state = seed;
  const random = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648; };
  const shapes = [[1200, 800], [800, 1200], [1000, 1000], [1080, 1350], [3000, 1000], [900, 1600], [1600, 900], [640, 1280]];
  const items = [];
  for (let k = 1; k <= count; k++) {
    if (fullEvery && k % fullEvery === 0) {
      items.push({ id: `ad-${k}`, fixedHeight: 60, fullWidth: true, title: "Sponsored" });
      continue;
    }
    const [width, height] = shapes[Math.floor(random() * shapes.length)];
    const item = { id: `photo-${k}`, width, height };
    if (random() < 0.4) item.extraHeight = 24;
    items.push(item);
  }
  items.splice(7, 0, { id: "panorama", aspectRatio: 100 });
  return items;
}
const waterfallPresets = [
  { name: "Photo feed, 2 columns (as on a phone)", pageSize: 12,
    settings: { containerWidth: 375, scale: 3, columns: 2, columnSpacing: 8, itemSpacing: 8, strategy: "shortestColumn" },
    items: photoFeed(47, 0, 7) },
  { name: "Photo feed, 3 columns with full-width ads", pageSize: 15,
    settings: { containerWidth: 600, scale: 2, columns: 3, columnSpacing: 6, itemSpacing: 6, insets: { top: 8, leading: 8, bottom: 8, trailing: 8 }, strategy: "shortestColumn" },
    items: photoFeed(59, 10, 11) },
  { name: "Home screen photos (seed 001's feed)", pageSize: 4,
    settings: { containerWidth: 390, scale: 3, columns: 2, columnSpacing: 10, itemSpacing: 10, strategy: "shortestColumn" },
    items: photoFeed(15, 0, 3).filter((item) => item.id !== "panorama") },
];

// ---------------------------------------------------------------------------------------------------------------
// The list model: sections of cells, each with a key of its own (for animation), its id, and its content

let nextKey = 1;

function modelItem(node) {
  const id = idOf(member(node, "id")?.value);
  return { key: `k${nextKey++}`, id, content: node.kind === "object" ? canonical(node, ["id"]) : canonical(node), node };
}
function modelSection(node, bare) {
  const itemsNode = member(node, "items")?.value;
  return {
    key: `k${nextKey++}`,
    id: bare ? { text: "", type: "null" } : idOf(member(node, "id")?.value),
    content: bare ? "{}" : canonical(node, ["id", "items"]),
    node: bare ? null : node,
    items: itemsNode && itemsNode.kind === "array" ? itemsNode.elements.map(modelItem) : [],
  };
}
/** The snapshot's sections, without the positions in `dropped` (keepFirst's droppedDuplicates of this side). */
function modelOf(root, dropped) {
  const sectionsNode = member(root, "sections")?.value;
  const bare = !sectionsNode;
  let sections = bare ? [modelSection(root, true)] : sectionsNode.elements.map((s) => modelSection(s, false));
  if (dropped) {
    const droppedItems = new Set(dropped.elements.map(([s, i]) => `${s}/${i}`));
    sections.forEach((section, s) => { section.items = section.items.filter((_, i) => !droppedItems.has(`${s}/${i}`)); });
    const droppedSections = new Set(dropped.sections);
    sections = sections.filter((_, s) => !droppedSections.has(s));
  }
  return sections;
}
const copySection = (section) => ({ ...section, key: `k${nextKey++}`, items: section.items.map((item) => ({ ...item, key: `k${nextKey++}` })) });
const cloneModel = (model) => model.map((section) => ({ ...section, items: section.items.map((item) => ({ ...item })) }));

/** What a step changed, by key: for the animation. */
const newChanges = () => ({ deleted: new Set(), inserted: new Set(), updated: new Set(), moved: new Set() });

/** Places `entries` ({to, value}) at their final indices and the `kept` values, in order, in the other slots. */
function placeBatch(kept, entries) {
  const result = new Array(kept.length + entries.length);
  for (const { to, value } of entries) {
    if (to < 0 || to >= result.length || result[to] !== undefined) throw new Error(`index ${to} is out of range or taken twice`);
    result[to] = value;
  }
  let next = 0;
  for (let k = 0; k < result.length; k++) if (result[k] === undefined) result[k] = kept[next++];
  return result;
}

function itemAt(model, [s, i]) {
  const item = model[s]?.items[i];
  if (!item) throw new Error(`no item at [${s}, ${i}]`);
  return item;
}

/** Applies one stage the way UIKit applies one performBatchUpdates (DifferenceKit's stage format). */
function applyStage(model, stage, target, targetById) {
  const changes = newChanges();
  for (const path of stage.elementUpdated) {
    const item = itemAt(model, path);
    const fresh = targetById.get(idKey(item.id));
    if (!fresh) throw new Error(`the updated item ${shownId(item.id)} is not in new`);
    Object.assign(item, { content: fresh.content, node: fresh.node });
    changes.updated.add(item.key);
  }
  // Deletions at old positions: the items first (their section indices are old too), then the sections.
  const deletions = [...stage.elementDeleted].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  for (const [s, i] of deletions) { changes.deleted.add(itemAt(model, [s, i]).key); model[s].items.splice(i, 1); }
  for (const s of [...stage.sectionDeleted].sort((a, b) => b - a)) {
    if (!model[s]) throw new Error(`no section ${s} to delete`);
    changes.deleted.add(model[s].key);
    model.splice(s, 1);
  }
  if (stage.sectionInserted.length || stage.sectionMoved.length) {
    const movedFrom = new Set(stage.sectionMoved.map(([from]) => from));
    const entries = stage.sectionMoved.map(([from, to]) => {
      if (!model[from]) throw new Error(`no section ${from} to move`);
      changes.moved.add(model[from].key);
      return { to, value: model[from] };
    });
    for (const s of stage.sectionInserted) {
      if (!target[s]) throw new Error(`new has no section ${s} to insert`);
      const section = copySection(target[s]);
      changes.inserted.add(section.key);
      entries.push({ to: s, value: section });
    }
    model.splice(0, model.length, ...placeBatch(model.filter((_, s) => !movedFrom.has(s)), entries));
  }
  if (stage.elementInserted.length || stage.elementMoved.length) {
    const movedFrom = new Set(stage.elementMoved.map(([[s, i]]) => `${s}/${i}`));
    const entries = model.map(() => []);
    for (const [from, [s, i]] of stage.elementMoved) {
      const item = itemAt(model, from);
      changes.moved.add(item.key);
      if (!entries[s]) throw new Error(`no section ${s} to move an item into`);
      entries[s].push({ to: i, value: item });
    }
    for (const [s, i] of stage.elementInserted) {
      const fresh = target[s]?.items[i];
      if (!fresh || !entries[s]) throw new Error(`new has no item at [${s}, ${i}] to insert`);
      const item = { ...fresh, key: `k${nextKey++}` };
      changes.inserted.add(item.key);
      entries[s].push({ to: i, value: item });
    }
    const kept = model.map((section, s) => section.items.filter((_, i) => !movedFrom.has(`${s}/${i}`)));
    model.forEach((section, s) => { section.items = placeBatch(kept[s], entries[s]); });
  }
  for (const s of stage.sectionUpdated) {
    if (!model[s] || !target[s]) throw new Error(`no section ${s} to update`);
    Object.assign(model[s], { content: target[s].content, node: target[s].node });
    changes.updated.add(model[s].key);
  }
  return changes;
}

/** Applies one sequential operation (RecyclerView's order: each index refers to the list the previous ones left). */
function applyOperation(model, operation, target, targetById) {
  const changes = newChanges();
  const sectionAt = (s) => { if (!model[s]) throw new Error(`no section ${s}`); return model[s]; };
  switch (operation.op) {
    case "removeSection": changes.deleted.add(sectionAt(operation.section).key); model.splice(operation.section, 1); break;
    case "removeElement": {
      const [s, i] = operation.path;
      changes.deleted.add(itemAt(model, operation.path).key);
      model[s].items.splice(i, 1);
      break;
    }
    case "moveSection": {
      const [section] = model.splice(operation.from, 1);
      if (!section || operation.to > model.length) throw new Error(`cannot move section ${operation.from} to ${operation.to}`);
      model.splice(operation.to, 0, section);
      changes.moved.add(section.key);
      break;
    }
    case "insertSection": {
      const fresh = target[operation.section];
      if (!fresh || operation.section > model.length) throw new Error(`cannot insert section ${operation.section}`);
      const section = copySection(fresh);
      model.splice(operation.section, 0, section);
      changes.inserted.add(section.key);
      break;
    }
    case "moveElement": {
      const item = itemAt(model, operation.from);
      model[operation.from[0]].items.splice(operation.from[1], 1);
      const [s, i] = operation.to;
      if (i > sectionAt(s).items.length) throw new Error(`cannot move an item to [${s}, ${i}]`);
      model[s].items.splice(i, 0, item);
      changes.moved.add(item.key);
      break;
    }
    case "insertElement": {
      const [s, i] = operation.path;
      const fresh = target[s]?.items[i];
      if (!fresh || i > sectionAt(s).items.length) throw new Error(`cannot insert new's item [${s}, ${i}]`);
      const item = { ...fresh, key: `k${nextKey++}` };
      model[s].items.splice(i, 0, item);
      changes.inserted.add(item.key);
      break;
    }
    case "updateElement": {
      const item = itemAt(model, operation.path);
      const fresh = targetById.get(idKey(item.id));
      if (!fresh) throw new Error(`the updated item ${shownId(item.id)} is not in new`);
      Object.assign(item, { content: fresh.content, node: fresh.node });
      changes.updated.add(item.key);
      break;
    }
    case "updateSection": {
      const section = sectionAt(operation.section);
      Object.assign(section, { content: target[operation.section].content, node: target[operation.section].node });
      changes.updated.add(section.key);
      break;
    }
    default: throw new Error(`unknown operation ${operation.op}`);
  }
  return changes;
}

/** The first difference between what is shown and `new`, or null when they are equal. */
function difference(model, target) {
  if (model.length !== target.length) return `${model.length} sections shown, new has ${target.length}`;
  for (let s = 0; s < model.length; s++) {
    const [a, b] = [model[s], target[s]];
    if (idKey(a.id) !== idKey(b.id)) return `section ${s} is ${shownId(a.id)}, new has ${shownId(b.id)}`;
    if (a.content !== b.content) return `section ${shownId(a.id)} differs from new`;
    if (a.items.length !== b.items.length) return `section ${shownId(a.id)} shows ${a.items.length} items, new has ${b.items.length}`;
    for (let i = 0; i < a.items.length; i++) {
      if (idKey(a.items[i].id) !== idKey(b.items[i].id)) return `[${s}, ${i}] is ${shownId(a.items[i].id)}, new has ${shownId(b.items[i].id)}`;
      if (a.items[i].content !== b.items[i].content) return `item ${shownId(a.items[i].id)} differs from new`;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// The list preview: draws the model, reusing each cell's element by key, and animates a step

const preview = $("preview");
let drawn = new Map(); // key → element

/** The text a cell or section header shows: its first text-like member. */
function summaryOf(node) {
  if (!node || node.kind !== "object") return "";
  for (const name of ["title", "name", "text", "caption", "label", "image"]) {
    const m = member(node, name);
    if (m && (m.value.kind === "string" || m.value.kind === "number")) {
      const more = node.members.filter((x) => !["id", "items", name].includes(x.name) && x.value.kind !== "object" && x.value.kind !== "array")
        .map((x) => `${x.name} ${x.value.kind === "string" ? x.value.value : x.value.kind === "number" ? x.value.text : String(x.value.value ?? "null")}`);
      return [m.value.kind === "string" ? m.value.value : m.value.text, ...more].join(" · ");
    }
  }
  return node.members.filter((x) => x.name !== "id" && x.name !== "items")
    .map((x) => `${x.name} ${x.value.kind === "string" ? x.value.value : x.value.kind === "number" ? x.value.text : x.value.kind}`).join(" · ");
}

/** Draws `model`, reusing each section's and cell's element by key and touching only what changed. */
function drawPreview(model) {
  const seen = new Map();
  const sections = model.map((section) => {
    let node = drawn.get(section.key);
    if (!node) {
      node = el("section", { className: "pv-section", "data-key": section.key },
        el("h3", {}, el("span", { className: "sid" }), el("span", { className: "stitle" })), el("ol", { className: "pv-cells" }));
    }
    if (node.shown !== section.content || node.dataset.sectionId !== section.id.text) {
      node.shown = section.content;
      node.dataset.sectionId = section.id.text;
      node.dataset.idType = section.id.type;
      node.querySelector(".sid").textContent = section.id.type === "null" ? "items (a bare list)" : shownId(section.id);
      node.querySelector(".stitle").textContent = summaryOf(section.node);
    }
    const cells = section.items.map((item) => {
      let cell = drawn.get(item.key);
      if (!cell) cell = el("li", { className: "pv-cell", "data-key": item.key }, el("span", { className: "cid" }), el("span", { className: "summary" }));
      if (cell.shown !== item.content || cell.dataset.itemId !== item.id.text) {
        cell.shown = item.content;
        cell.dataset.itemId = item.id.text;
        cell.dataset.idType = item.id.type;
        cell.querySelector(".cid").textContent = shownId(item.id);
        cell.querySelector(".summary").textContent = summaryOf(item.node);
      }
      seen.set(item.key, cell);
      return cell;
    });
    const list = node.querySelector(".pv-cells");
    if (cells.length === 0) cells.push(list.querySelector(".pv-empty") || el("li", { className: "pv-empty", "aria-hidden": "true" }, "no items"));
    if (!sameChildren(list, cells)) list.replaceChildren(...cells);
    seen.set(section.key, node);
    return node;
  });
  if (!sameChildren(preview, sections)) preview.replaceChildren(...sections);
  drawn = seen;
}

/** Whether `parent`'s children are `nodes`, in order. */
function sameChildren(parent, nodes) {
  if (parent.children.length !== nodes.length) return false;
  for (let k = 0; k < nodes.length; k++) if (parent.children[k] !== nodes[k]) return false;
  return true;
}

const finished = (animations) => Promise.all(animations.map((a) => a.finished.catch(() => undefined)));

/** Draws `model` after a step: deletions leave, then moves slide, insertions arrive and updates flash. */
async function animateStep(model, changes, speed = 1) {
  if (!animates()) { drawPreview(model); return; }
  const ms = (duration) => duration / speed;
  preview.dataset.phase = "leaving";
  const leaving = [...changes.deleted].map((key) => drawn.get(key)).filter(Boolean);
  leaving.forEach((node) => node.classList.add("leaving"));
  await finished(leaving.map((node) => node.animate(
    [{ opacity: 1, transform: "scale(1)" }, { opacity: 0, transform: "scale(0.92)" }],
    { duration: ms(300), easing: "ease-in", fill: "forwards" })));
  const before = new Map([...drawn].map(([key, node]) => [key, node.getBoundingClientRect()]));
  drawPreview(model);
  preview.dataset.phase = "moving";
  const animations = [];
  const shift = new Map();
  const slide = (key, node) => {
    const old = before.get(key);
    if (!old) return;
    const now = node.getBoundingClientRect();
    const parent = node.classList.contains("pv-cell") ? shift.get(node.closest(".pv-section")?.dataset.key) : null;
    const dx = old.left - now.left - (parent ? parent.dx : 0);
    const dy = old.top - now.top - (parent ? parent.dy : 0);
    if (node.classList.contains("pv-section")) shift.set(key, { dx: old.left - now.left, dy: old.top - now.top });
    if (Math.abs(dx) + Math.abs(dy) < 0.5) return;
    if (changes.moved.has(key)) node.classList.add("moving"); // drawn above the cells it passes
    animations.push(node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: ms(450), easing: "cubic-bezier(.2,.7,.2,1)" }));
  };
  for (const [key, node] of drawn) if (node.classList.contains("pv-section")) slide(key, node);
  for (const [key, node] of drawn) if (node.classList.contains("pv-cell")) slide(key, node);
  for (const key of changes.inserted) {
    const node = drawn.get(key);
    if (!node) continue;
    node.classList.add("arriving");
    animations.push(node.animate([{ opacity: 0, transform: "scale(0.9)" }, { opacity: 1, transform: "scale(1)" }], { duration: ms(450), easing: "ease-out" }));
  }
  for (const key of changes.updated) {
    const node = drawn.get(key);
    if (node) animations.push(node.animate([{ backgroundColor: "#ffd54a" }, { backgroundColor: "#ffd54a", offset: 0.3 }, {}], { duration: ms(900) }));
  }
  await finished(animations);
  for (const node of preview.querySelectorAll(".moving, .arriving")) node.classList.remove("moving", "arriving");
  preview.dataset.phase = "";
}

// ---------------------------------------------------------------------------------------------------------------
// The player: steps through the staged changeset (a stage a step) or the sequential one (an operation a step)

const player = {
  old: null, target: null, targetById: null, answer: null, steps: [], mode: "staged", done: 0, model: null, busy: false,
};

const stepName = (mode, k, step) => mode === "staged"
  ? `stage ${k + 1} of ${player.steps.length} (${stageKinds(step).join(", ")})`
  : `operation ${k + 1} of ${player.steps.length} (${describeOperation(step)})`;

function stageKinds(stage) {
  return ["elementUpdated", "sectionDeleted", "elementDeleted", "sectionInserted", "sectionMoved", "elementInserted", "elementMoved", "sectionUpdated"]
    .filter((kind) => stage[kind].length).map((kind) => `${stage[kind].length} ${kind}`);
}

function setControls() {
  const none = player.steps.length === 0 || !player.model;
  $("prev-stage").disabled = player.busy || none || player.done === 0;
  $("next-stage").disabled = player.busy || none || player.done === player.steps.length;
  $("play-all").disabled = player.busy || none || player.done === player.steps.length;
  $("play-mode").disabled = player.busy || !player.answer;
  $("diff").disabled = player.busy;
  preview.dataset.state = !player.model ? "empty" : player.busy ? "animating" : player.done === player.steps.length ? "done" : "ready";
  preview.dataset.step = String(player.done);
  preview.dataset.steps = String(player.steps.length);
  document.querySelectorAll("[data-step-index]").forEach((node) => {
    if (Number(node.dataset.stepIndex) === player.done - 1 && node.dataset.stepMode === player.mode) node.setAttribute("aria-current", "step");
    else node.removeAttribute("aria-current");
  });
}

function showVerdict() {
  const verdict = $("verdict");
  if (player.done !== player.steps.length || !player.model) { verdict.hidden = true; verdict.removeAttribute("data-verdict"); return; }
  const different = difference(player.model, player.target);
  verdict.hidden = false;
  verdict.dataset.verdict = different ? "different" : "equal";
  const items = player.target.reduce((n, s) => n + s.items.length, 0);
  verdict.textContent = different
    ? `The preview differs from new: ${different}.`
    : `The preview equals new: ${player.target.length} section${player.target.length === 1 ? "" : "s"}, ${items} item${items === 1 ? "" : "s"}, every id and value in place.`;
}

function resetPlayer(mode) {
  player.mode = mode;
  player.steps = (mode === "staged" ? player.answer.staged : player.answer.sequential) || [];
  player.model = cloneModel(player.old);
  player.done = 0;
  drawn = new Map();
  drawPreview(player.model);
  $("step-status").textContent = player.steps.length
    ? `Showing old. ${player.steps.length} ${mode === "staged" ? "stage" : "operation"}${player.steps.length === 1 ? "" : "s"} to play.`
    : "Old and new are the same list: nothing to play.";
  showVerdict();
  setControls();
}

function applyStep(model, k) {
  const step = player.steps[k];
  return player.mode === "staged"
    ? applyStage(model, step, player.target, player.targetById)
    : applyOperation(model, step, player.target, player.targetById);
}

/** Plays the next step; `speed` shortens its animation (Play all of a long changeset). */
async function stepForward(speed = 1) {
  if (player.busy || !player.model || player.done >= player.steps.length) return;
  player.busy = true;
  setControls();
  const k = player.done;
  const step = player.steps[k];
  try {
    const changes = applyStep(player.model, k);
    player.done = k + 1;
    setControls();
    $("step-status").textContent = `Playing ${stepName(player.mode, k, step)}.`;
    await animateStep(player.model, changes, speed);
    $("step-status").textContent = `Applied ${stepName(player.mode, k, step)}.`;
  } catch (error) {
    player.done = player.steps.length;
    $("step-status").textContent = `The ${player.mode} changeset cannot be applied: ${error.message}.`;
    drawn = new Map();
    drawPreview(player.model);
  } finally {
    player.busy = false;
    showVerdict();
    setControls();
  }
}

function stepBack() {
  if (player.busy || player.done === 0) return;
  const target = player.done - 1;
  player.model = cloneModel(player.old);
  drawn = new Map();
  try { for (let k = 0; k < target; k++) applyStep(player.model, k); } catch { /* shown when played forward */ }
  player.done = target;
  drawPreview(player.model);
  $("step-status").textContent = target === 0 ? "Showing old." : `Back to after ${stepName(player.mode, target - 1, player.steps[target - 1])}.`;
  showVerdict();
  setControls();
}

/**
 * Plays every remaining step. Animated, a long changeset plays faster (about thirty steps' worth of time in all,
 * each step at least a fifth of its usual length); with reduced motion the steps are applied and the list drawn
 * once.
 */
async function playAll() {
  if (player.busy || !player.model) return;
  const remaining = player.steps.length - player.done;
  if (!animates()) {
    player.busy = true;
    setControls();
    const first = player.done;
    try {
      for (let k = first; k < player.steps.length; k++) { applyStep(player.model, k); player.done = k + 1; }
      $("step-status").textContent = `Applied ${remaining} ${player.mode === "staged" ? "stage" : "operation"}${remaining === 1 ? "" : "s"}.`;
    } catch (error) {
      $("step-status").textContent = `The ${player.mode} changeset cannot be applied: ${error.message}.`;
      player.done = player.steps.length;
    } finally {
      drawn = new Map();
      drawPreview(player.model);
      player.busy = false;
      showVerdict();
      setControls();
    }
    return;
  }
  const speed = Math.min(5, Math.max(1, remaining / 30));
  const mode = player.mode;
  const answer = player.answer;
  while (player.done < player.steps.length && player.answer === answer && player.mode === mode) {
    await stepForward(speed);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The answer: counts and every rendering asked for, readable

const pathText = (path) => `[${path.join(", ")}]`;
const idNote = (ids, kind, k) => (ids && ids[kind] ? ` ${ids[kind][k] === null ? "null" : JSON.stringify(ids[kind][k])}` : "");

function describeOperation(op) {
  const where = op.path ? pathText(op.path) : op.section !== undefined ? `section ${op.section}` : "";
  const move = op.from !== undefined ? `${Array.isArray(op.from) ? pathText(op.from) : op.from} → ${Array.isArray(op.to) ? pathText(op.to) : op.to}` : "";
  const count = op.count !== undefined ? ` ×${op.count}` : "";
  const ids = op.ids ? ` ${op.ids.map((id) => JSON.stringify(id)).join(" ")}` : op.id !== undefined ? ` ${JSON.stringify(op.id)}` : "";
  return `${op.op} ${move || where}${count}${ids}`;
}

function renderAnswer(answer) {
  const box = $("answer");
  const parts = [];
  const counts = el("dl", { className: "counts" });
  for (const [name, value] of Object.entries(answer.counts)) counts.append(el("div", {}, el("dt", {}, name), el("dd", {}, String(value))));
  parts.push(el("h3", {}, "Counts"), counts);
  if (answer.staged) {
    parts.push(el("h3", {}, `Staged: ${answer.staged.length} stage${answer.staged.length === 1 ? "" : "s"}, each one performBatchUpdates`));
    const list = el("ol", { "aria-label": "Staged changeset" });
    answer.staged.forEach((stage, k) => {
      const entries = el("ul");
      for (const kind of ["elementUpdated", "sectionDeleted", "elementDeleted", "sectionInserted", "sectionMoved", "elementInserted", "elementMoved", "sectionUpdated"]) {
        stage[kind].forEach((entry, n) => {
          const text = kind.endsWith("Moved")
            ? `${Array.isArray(entry[0]) ? pathText(entry[0]) : entry[0]} → ${Array.isArray(entry[1]) ? pathText(entry[1]) : entry[1]}`
            : Array.isArray(entry) ? pathText(entry) : String(entry);
          entries.append(el("li", {}, `${kind} ${text}${idNote(stage.ids, kind, n)}`));
        });
      }
      list.append(el("li", { className: "stage", "data-step-index": k, "data-step-mode": "staged" },
        el("span", { className: "stage-title" }, `Stage ${k + 1}: ${stageKinds(stage).join(", ")}`), entries));
    });
    parts.push(list);
  }
  if (answer.sequential) {
    parts.push(el("h3", {}, `Sequential: ${answer.sequential.length} operation${answer.sequential.length === 1 ? "" : "s"}`));
    parts.push(el("ol", { "aria-label": "Sequential operations" },
      answer.sequential.map((op, k) => el("li", { "data-step-index": k, "data-step-mode": "sequential" }, describeOperation(op)))));
  }
  if (answer.ranges) {
    parts.push(el("h3", {}, `Ranges: ${answer.ranges.length} operation${answer.ranges.length === 1 ? "" : "s"}`));
    parts.push(el("ol", { "aria-label": "Range operations" }, answer.ranges.map((op) => el("li", {}, describeOperation(op)))));
  }
  if (answer.jsonPatch) {
    parts.push(el("h3", {}, `JSON Patch: ${answer.jsonPatch.length} operation${answer.jsonPatch.length === 1 ? "" : "s"}`));
    parts.push(el("ol", { "aria-label": "JSON Patch operations" }, answer.jsonPatch.map((op) => {
      const value = op.value !== undefined ? ` ${JSON.stringify(op.value)}` : "";
      const from = op.from !== undefined ? ` from ${op.from}` : "";
      return el("li", {}, `${op.op} ${op.path}${from}${value.length > 160 ? value.slice(0, 157) + "…" : value}`);
    })));
  }
  if (answer.changedMembers) {
    parts.push(el("h3", {}, "Changed members"));
    parts.push(el("ul", { "aria-label": "Changed members" },
      answer.changedMembers.sections.map((entry) => el("li", {}, `section ${entry.section}: ${entry.members.join(", ")}`)),
      answer.changedMembers.elements.map((entry) => el("li", {}, `${pathText(entry.path)}: ${entry.members.join(", ")}`))));
  }
  if (answer.droppedDuplicates) {
    const dropped = answer.droppedDuplicates;
    parts.push(el("h3", {}, "Dropped duplicates (keepFirst)"));
    parts.push(el("ul", {}, ["old", "new"].map((side) => el("li", {},
      `${side}: sections ${JSON.stringify(dropped[side].sections)}, items ${JSON.stringify(dropped[side].elements)}`))));
  }
  parts.push(el("details", {}, el("summary", {}, "The answer as JSON"), el("pre", {}, JSON.stringify(answer, null, 2))));
  box.replaceChildren(...parts);
}

// ---------------------------------------------------------------------------------------------------------------
// Diff

const oldEditor = new Editor($("old-text"), "Old snapshot");
const newEditor = new Editor($("new-text"), "New snapshot");

function diffOptions() {
  const renderings = [...document.querySelectorAll('input[name="rendering"]:checked')].map((box) => box.value);
  return {
    renderings, ids: $("opt-ids").checked, changedMembers: $("opt-changed").checked, duplicates: $("opt-duplicates").value,
  };
}

/** The editor span (or, for `options`, the control) a path of a /diff problem names. */
function resolveDiffPath(path, occurrence) {
  const [root, ...rest] = pathSegments(path);
  if (root === "options") {
    const controls = { renderings: document.querySelector('input[name="rendering"]'), ids: $("opt-ids"), changedMembers: $("opt-changed"), duplicates: $("opt-duplicates") };
    return { control: controls[rest[0]] || $("opt-duplicates") };
  }
  const editor = root === "old" ? oldEditor : root === "new" ? newEditor : null;
  if (!editor) return null;
  let tree;
  try { tree = parseJSON(editor.text); } catch { return null; }
  const span = spanOf(tree, rest, occurrence);
  return span && { editor, start: span.start, end: span.end };
}

async function runDiff() {
  if (player.busy) {
    $("diff-status").textContent = "A step is playing: press Diff again when it has ended.";
    return;
  }
  const options = diffOptions();
  const body = new Body().add('{"old":').add(oldEditor.text, oldEditor).add(',\n"new":').add(newEditor.text, newEditor)
    .add(`,\n"options":${JSON.stringify(options)}}`);
  player.busy = true; // no step plays while the answer is on its way
  setControls();
  $("diff-status").textContent = "Asking POST /diff…";
  $("problem").hidden = true;
  let result;
  try {
    result = await post("/diff", body.text);
  } catch (error) {
    $("diff-status").textContent = `The server did not answer: ${error.message}`;
    return;
  } finally {
    player.busy = false;
    setControls();
  }
  const { status, answer } = result;
  player.answer = null;
  player.model = null;
  player.steps = [];
  if (status !== 200) {
    $("diff-status").textContent = `POST /diff answered ${status}.`;
    $("diff-status").dataset.status = String(status);
    showProblem($("problem"), answer, status, body, resolveDiffPath, [oldEditor, newEditor],
      (duplicate) => placesOfID(duplicate.snapshot === "old" ? oldEditor : newEditor, duplicate.snapshot, duplicate.kind, duplicate.id));
    $("answer").replaceChildren(el("p", { className: "hint" }, "No changeset: see the problem above."));
    preview.replaceChildren();
    drawn = new Map();
    $("step-status").textContent = "Nothing to play.";
    showVerdict();
    setControls();
    return;
  }
  let oldTree;
  let newTree;
  try {
    oldTree = parseJSON(oldEditor.text);
    newTree = parseJSON(newEditor.text);
  } catch (error) {
    $("diff-status").textContent = `POST /diff answered 200, but this page cannot read the snapshots to play them: ${error.message}.`;
    renderAnswer(answer);
    return;
  }
  const dropped = answer.droppedDuplicates;
  player.answer = answer;
  player.old = modelOf(oldTree, dropped && dropped.old);
  player.target = modelOf(newTree, dropped && dropped.new);
  player.targetById = new Map(player.target.flatMap((section) => section.items.map((item) => [idKey(item.id), item])));
  const total = Object.values(answer.counts).reduce((a, b) => a + b, 0);
  $("diff-status").textContent = `POST /diff answered 200: ${total} change${total === 1 ? "" : "s"}.`;
  $("diff-status").dataset.status = "200";
  renderAnswer(answer);
  const modes = ["staged", "sequential"].filter((mode) => answer[mode]);
  for (const option of $("play-mode").options) option.disabled = !modes.includes(option.value);
  if (!modes.includes($("play-mode").value) && modes.length) $("play-mode").value = modes[0];
  if (modes.length) {
    resetPlayer($("play-mode").value);
  } else {
    player.model = cloneModel(player.old);
    drawn = new Map();
    drawPreview(player.model);
    $("step-status").textContent = "Ask for the staged or sequential rendering to play the changeset.";
    setControls();
  }
}

function loadDiffPreset(k) {
  const preset = diffPresets[k];
  oldEditor.text = preset.oldText ?? pretty(preset.old);
  newEditor.text = preset.newText ?? pretty(preset.new);
}

// ---------------------------------------------------------------------------------------------------------------
// Waterfall: pages from POST /layout drawn to scale (1 CSS pixel = 1 point), each box its frame

const settingsEditor = new Editor($("wf-settings"), "Layout settings");
const itemsEditor = new Editor($("wf-items"), "Layout items");
const waterfall = { cursor: null, drawnCount: 0, frames: new Map(), canvas: null, pages: 0, busy: false };
const appendStable = (strategy) => strategy === "shortestColumn" || strategy === "roundRobin";

function colorOf(text) {
  let hash = 2166136261;
  for (const ch of text) hash = Math.imul(hash ^ ch.codePointAt(0), 16777619);
  hash = Math.imul(hash ^ (hash >>> 15), 2246822507);
  hash = Math.imul(hash ^ (hash >>> 13), 3266489909);
  return `hsl(${((hash ^ (hash >>> 16)) >>> 0) % 360}, 62%, 78%)`;
}

function drawItems(canvas, items, containerWidth, contentHeight, markNew) {
  canvas.style.width = `${containerWidth}px`;
  canvas.style.height = `${Math.max(contentHeight, 1)}px`;
  canvas.querySelectorAll(".page-new").forEach((node) => node.classList.remove("page-new"));
  for (const item of items) {
    const id = item.id === null ? "null" : String(item.id);
    const box = el("div", { className: "wf-item", "data-item-id": id, "data-column": item.column, title: id },
      el("span", {}, id), el("span", {}, `${Math.round(item.frame.width)}×${Math.round(item.frame.height)}`));
    if (item.column === null || item.column === undefined) box.classList.add("full");
    if (markNew) box.classList.add("page-new");
    Object.assign(box.style, {
      left: `${item.frame.x}px`, top: `${item.frame.y}px`, width: `${item.frame.width}px`, height: `${item.frame.height}px`,
      backgroundColor: colorOf(id),
    });
    canvas.append(box);
  }
}

/** The settings' text with its `strategy` member set to `strategy` (added when absent), every other byte kept. */
function withStrategy(text, strategy) {
  const tree = parseJSON(text);
  if (tree.kind !== "object") throw new JSONSyntaxError("the settings are not an object", 0);
  const found = member(tree, "strategy");
  if (found) return text.slice(0, found.value.start) + JSON.stringify(strategy) + text.slice(found.value.end);
  const open = tree.start + 1;
  const rest = text.slice(open);
  const indent = /^\s*\n(\s*)/.exec(rest);
  const separator = tree.members.length ? "," : "";
  return indent
    ? text.slice(0, open) + `\n${indent[1]}"strategy": ${JSON.stringify(strategy)}${separator}` + rest
    : text.slice(0, open) + `"strategy": ${JSON.stringify(strategy)}${separator} ` + rest;
}

/** The settings' parsed value (for the container width and the strategy), or null when they do not parse. */
function settingsValue() {
  try { return JSON.parse(settingsEditor.text); } catch { return null; }
}

/** The page size as typed: its digits as a JSON number, or `null` for the server to name (never a silent default). */
function pageSizeText() {
  const text = $("wf-page-size").value.trim();
  return /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text) ? text : "null";
}

function resolveLayoutPath(path, firstIndex, occurrence) {
  const [root, ...rest] = pathSegments(path);
  if (root === "pageSize") return { control: $("wf-page-size") };
  const editor = root === "settings" ? settingsEditor : root === "items" ? itemsEditor : null;
  if (!editor) return null;
  let tree;
  try { tree = parseJSON(editor.text); } catch { return null; }
  if (root === "items" && typeof rest[0] === "number") rest[0] += firstIndex;
  const span = spanOf(tree, rest, occurrence);
  return span && { editor, start: span.start, end: span.end };
}

/** Sends one /layout request; shows its problem and returns null, or returns its page. */
async function layoutRequest(body, firstIndex) {
  $("wf-problem").hidden = true;
  const { status, answer } = await post("/layout", body.text);
  if (status !== 200) {
    $("wf-status").textContent = `POST /layout answered ${status}.`;
    showProblem($("wf-problem"), answer, status, body, (path, occurrence) => resolveLayoutPath(path, firstIndex, occurrence),
      [settingsEditor, itemsEditor]);
    return null;
  }
  return answer;
}

/** Runs `work` unless the waterfall is already busy; whatever happens, the view is usable afterwards. */
async function waterfallTask(work) {
  if (waterfall.busy) return;
  waterfall.busy = true;
  try {
    await work();
  } catch (error) {
    $("wf-status").textContent = error instanceof JSONSyntaxError
      ? `The layout items or settings are not valid JSON: ${error.message}.`
      : `The server did not answer: ${error.message}.`;
  } finally {
    waterfall.busy = false;
  }
}

let layouts = 0; // how many first pages were drawn: each canvas carries its number

const layOutFirstPage = () => waterfallTask(async () => {
  $("wf-compare-stage").hidden = true;
  const strategy = settingsValue()?.strategy ?? "shortestColumn";
  if (["shortestColumn", "roundRobin", "sequentialSplit", "balanced"].includes(strategy)) $("wf-strategy").value = strategy;
  const paged = appendStable(strategy);
  const body = new Body().add('{"settings":').add(settingsEditor.text, settingsEditor).add(',\n"items":').add(itemsEditor.text, itemsEditor)
    .add(paged ? `,\n"pageSize":${pageSizeText()}}` : "}");
  $("wf-status").textContent = "Asking POST /layout…";
  $("wf-next").disabled = true;
  const page = await layoutRequest(body, 0);
  if (!page) return;
  const settings = settingsValue();
  const canvas = el("div", { className: "wf-canvas", "data-strategy": page.strategy, "data-layout": ++layouts });
  $("wf-stage").replaceChildren(canvas);
  Object.assign(waterfall, {
    canvas, containerWidth: settings.containerWidth, cursor: page.nextCursor || null, drawnCount: page.items.length,
    pages: 1, total: parseJSON(itemsEditor.text).elements.length,
  });
  drawItems(canvas, page.items, settings.containerWidth, page.contentHeight, false);
  canvas.dataset.pages = "1";
  canvas.dataset.drawn = String(waterfall.drawnCount);
  const rest = waterfall.total - waterfall.drawnCount;
  $("wf-status").textContent = `${page.strategy}: ${page.items.length} items in ${page.columnCount} columns of ${+page.columnWidth.toFixed(2)} points, ${+page.contentHeight.toFixed(2)} points tall`
    + (paged ? (rest > 0 ? `; ${rest} more for Next page.` : "; every item drawn.") : `; ${page.strategy} lays out the whole list at once (not append-stable), so it has no next page.`);
  $("wf-next").disabled = !(paged && waterfall.cursor && rest > 0);
});

const layOutNextPage = () => waterfallTask(async () => {
  if (!waterfall.cursor) return;
  $("wf-next").disabled = true;
  const pageSize = Math.max(1, Math.floor(Number($("wf-page-size").value))) || 1;
  let tree;
  try { tree = parseJSON(itemsEditor.text); } catch (error) {
    $("wf-status").textContent = `The layout items are not valid JSON (${error.message}): fix them, then press Next page again.`;
    const { line, column } = lineAndColumn(itemsEditor.text, error.index);
    itemsEditor.select(error.index, error.index);
    $("wf-status").textContent += ` Line ${line}, column ${column}.`;
    $("wf-next").disabled = false;
    return;
  }
  const slice = tree.elements.slice(waterfall.drawnCount, waterfall.drawnCount + pageSize);
  const body = new Body().add('{"settings":').add(settingsEditor.text, settingsEditor).add(',\n"items":[');
  slice.forEach((node, k) => {
    if (k) body.add(",");
    body.add(itemsEditor.text.slice(node.start, node.end), itemsEditor, node.start);
  });
  body.add(`],\n"cursor":${JSON.stringify(waterfall.cursor)}}`);
  const boxOf = (node) => [node.offsetLeft, node.offsetTop, node.offsetWidth, node.offsetHeight, node.style.left, node.style.top, node.style.width, node.style.height].join();
  const before = new Map([...waterfall.canvas.querySelectorAll(".wf-item")].map((node) => [node, boxOf(node)]));
  $("wf-status").textContent = "Asking POST /layout for the next page…";
  const page = await layoutRequest(body, waterfall.drawnCount);
  if (!page) { $("wf-next").disabled = false; return; }
  drawItems(waterfall.canvas, page.items, waterfall.containerWidth, page.contentHeight, true);
  waterfall.cursor = page.nextCursor || null;
  waterfall.drawnCount += page.items.length;
  waterfall.total = tree.elements.length;
  waterfall.pages += 1;
  let moved = 0;
  for (const [node, box] of before) if (boxOf(node) !== box) moved += 1;
  waterfall.canvas.dataset.pages = String(waterfall.pages);
  waterfall.canvas.dataset.drawn = String(waterfall.drawnCount);
  waterfall.canvas.dataset.moved = String(moved);
  const rest = waterfall.total - waterfall.drawnCount;
  $("wf-status").textContent = `Page ${waterfall.pages}: ${page.items.length} items added below (outlined); `
    + (moved === 0 ? `none of the ${before.size} items drawn before moved` : `${moved} of the ${before.size} items drawn before moved`)
    + `. ${+page.contentHeight.toFixed(2)} points tall` + (rest > 0 ? `; ${rest} more.` : "; every item drawn.");
  $("wf-next").disabled = !(waterfall.cursor && rest > 0);
});

/** Lays out the same items (those drawn, or all) with every strategy, side by side, the settings' text kept. */
const compareStrategies = () => waterfallTask(async () => {
  const stage = $("wf-compare-stage");
  const settings = settingsValue();
  const tree = parseJSON(itemsEditor.text);
  if (!settings) throw new JSONSyntaxError("the settings do not parse", 0);
  const count = waterfall.drawnCount || tree.elements.length;
  const itemsText = "[" + tree.elements.slice(0, count).map((node) => itemsEditor.text.slice(node.start, node.end)).join(",") + "]";
  const figures = [];
  for (const strategy of ["shortestColumn", "roundRobin", "sequentialSplit", "balanced"]) {
    const settingsText = withStrategy(settingsEditor.text, strategy);
    const body = new Body().add(`{"settings":${settingsText},\n"items":${itemsText}}`);
    const page = await layoutRequest(body, 0);
    if (!page) break;
    const canvas = el("div", { className: "wf-canvas", "data-strategy": strategy });
    drawItems(canvas, page.items, settings.containerWidth, page.contentHeight, false);
    figures.push(el("figure", { "data-strategy": strategy },
      el("figcaption", {}, `${strategy}: ${+page.contentHeight.toFixed(1)} points tall, columns ${page.columnHeights.map((h) => +h.toFixed(1)).join(" / ")}, `
        + (page.appendStable ? "append-stable" : "not append-stable")), canvas));
  }
  stage.replaceChildren(...figures);
  stage.hidden = figures.length === 0;
  if (figures.length) $("wf-status").textContent = `The same ${count} items with each strategy, side by side.`;
});

function loadWaterfallPreset(k) {
  const preset = waterfallPresets[k];
  settingsEditor.text = pretty(preset.settings);
  itemsEditor.text = "[\n" + preset.items.map((item) => "  " + JSON.stringify(item)).join(",\n") + "\n]";
  $("wf-page-size").value = String(preset.pageSize);
  $("wf-strategy").value = preset.settings.strategy;
}

/** The strategy control edits the settings' text (only the `strategy` member), then lays out again. */
function setStrategy(strategy) {
  try {
    settingsEditor.text = withStrategy(settingsEditor.text, strategy);
  } catch {
    $("wf-status").textContent = "Fix the layout settings' JSON to change the strategy.";
    return;
  }
  layOutFirstPage();
}

// ---------------------------------------------------------------------------------------------------------------
// Views and wiring

function showView(name) {
  for (const view of ["changeset", "waterfall"]) {
    $(`view-${view}`).hidden = view !== name;
    $(`tab-${view}`).setAttribute("aria-pressed", String(view === name));
  }
  if (name === "waterfall" && !waterfall.canvas) layOutFirstPage();
}

function start() {
  diffPresets.forEach((preset, k) => $("preset").append(el("option", { value: k }, preset.name)));
  waterfallPresets.forEach((preset, k) => $("wf-preset").append(el("option", { value: k }, preset.name)));
  $("preset").addEventListener("change", (event) => loadDiffPreset(Number(event.target.value)));
  $("wf-preset").addEventListener("change", (event) => { loadWaterfallPreset(Number(event.target.value)); layOutFirstPage(); });
  $("wf-strategy").addEventListener("change", (event) => setStrategy(event.target.value));
  $("diff").addEventListener("click", runDiff);
  $("next-stage").addEventListener("click", () => stepForward());
  $("prev-stage").addEventListener("click", stepBack);
  $("play-all").addEventListener("click", () => playAll());
  $("play-mode").addEventListener("change", (event) => { if (player.answer && !player.busy) resetPlayer(event.target.value); });
  $("tab-changeset").addEventListener("click", () => showView("changeset"));
  $("tab-waterfall").addEventListener("click", () => showView("waterfall"));
  $("wf-layout").addEventListener("click", layOutFirstPage);
  $("wf-next").addEventListener("click", layOutNextPage);
  $("wf-compare").addEventListener("click", compareStrategies);
  for (const area of document.querySelectorAll("textarea")) {
    area.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); (area.id.startsWith("wf-") ? layOutFirstPage : runDiff)(); }
    });
  }
  loadDiffPreset(0);
  loadWaterfallPreset(0);
  document.body.dataset.ready = "true";
}

start();
