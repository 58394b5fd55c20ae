// Runs the preview reload client (path in argv[2]) against a fake DOM and a
// fake EventSource, and checks what a person would see: the overlay text,
// its removal, reloads. Exits non-zero with a message on the first failure.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";

class FakeElement {
  constructor(tag) {
    this.tag = tag;
    this.children = [];
    this.parent = null;
    this.style = {};
    this.dataset = {};
    this.attributes = {};
    this.listeners = {};
    this.text = "";
  }
  // The client must never parse markup or set style attributes (CSP).
  set innerHTML(_) { throw new Error("innerHTML was assigned"); }
  get innerHTML() { throw new Error("innerHTML was read"); }
  set outerHTML(_) { throw new Error("outerHTML was assigned"); }
  insertAdjacentHTML() { throw new Error("insertAdjacentHTML was called"); }
  set textContent(value) { this.text = String(value); this.children = []; }
  get textContent() {
    return this.text + this.children.map((child) => child.textContent).join("")
      + (this.shadow ? this.shadow.textContent : "");
  }
  setAttribute(name, value) {
    if (name === "style") throw new Error("a style attribute was set");
    this.attributes[name] = String(value);
  }
  append(...nodes) {
    for (const node of nodes) {
      node.parent = this;
      this.children.push(node);
    }
  }
  attachShadow() {
    this.shadow = new FakeElement("#shadow-root");
    return this.shadow;
  }
  addEventListener(type, listener) { (this.listeners[type] ??= []).push(listener); }
  remove() {
    if (this.parent) this.parent.children = this.parent.children.filter((child) => child !== this);
    this.parent = null;
  }
}

class FakeEventSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  static instances = [];
  constructor(url) {
    this.url = url;
    this.readyState = FakeEventSource.CONNECTING;
    this.listeners = {};
    FakeEventSource.instances.push(this);
  }
  addEventListener(type, listener) { (this.listeners[type] ??= []).push(listener); }
  close() { this.readyState = FakeEventSource.CLOSED; }
  serverSends(type, data) {
    for (const listener of this.listeners[type] ?? []) listener(new MessageEvent(type, { data }));
  }
  connectionFails(readyState) {
    this.readyState = readyState;
    for (const listener of this.listeners.error ?? []) listener(new Event("error"));
  }
}

const html = new FakeElement("html");
let reloads = 0;
const context = {
  document: { createElement: (tag) => new FakeElement(tag), documentElement: html },
  location: { pathname: "/albums/10-lemonade/", reload: () => { reloads += 1; } },
  EventSource: FakeEventSource,
  MessageEvent,
  Event,
  setTimeout: (callback) => callback(),
};
vm.createContext(context);
vm.runInContext(readFileSync(process.argv[2], "utf8"), context);

assert.equal(FakeEventSource.instances.length, 1, "connects once on load");
const source = FakeEventSource.instances[0];
// It names its page, so that the server renders it first after an edit.
assert.equal(source.url, "/__preview/events?page=%2Falbums%2F10-lemonade%2Findex.html");
source.serverSends("hello", "server-1");

const diagnostics = 'Data/tracks.csv:12:4: error: album <b>999</b> does not exist\nTemplates/a.mustache:1:1: error: x';
source.serverSends("error", diagnostics);
assert.equal(html.children.length, 1, "an error shows one overlay");
const overlay = html.children[0];
assert.ok(overlay.textContent.includes(diagnostics), "the overlay shows the diagnostics as text");
const panel = overlay.shadow.children[0];
assert.equal(panel.attributes.role, "alert");
assert.equal(panel.style.position, "fixed", "styled through element.style");

source.serverSends("error", "second error");
assert.equal(html.children.length, 1, "a new error replaces the overlay");
assert.ok(html.children[0].textContent.includes("second error"));

source.serverSends("ok", "ok");
assert.equal(html.children.length, 0, "ok removes the overlay");
assert.equal(reloads, 0);

source.serverSends("reload", '["/index.html","/albums/11-renaissance/index.html"]');
assert.equal(reloads, 0, "a reload naming other pages leaves this one alone");
source.serverSends("reload", '["/index.html","/albums/10-lemonade/index.html"]');
assert.equal(reloads, 1, "a reload naming this page reloads it");
context.location.pathname = "/caf%C3%A9s/";
source.serverSends("reload", '["/cafés/index.html"]');
assert.equal(reloads, 2, "the address is compared decoded");
context.location.pathname = "/albums/10-lemonade/";
source.serverSends("reload", "*");
assert.equal(reloads, 3, "* reloads every page");
source.serverSends("reload", "reload");
assert.equal(reloads, 4, "anything but a list reloads the page");
source.serverSends("reload", '{"except":["/albums/10-lemonade/index.html"]}');
assert.equal(reloads, 4, "every page but this one, which reloaded first");
source.serverSends("reload", '{"except":["/index.html"]}');
assert.equal(reloads, 5, "every page but another one");

source.connectionFails(FakeEventSource.CONNECTING);
assert.equal(FakeEventSource.instances.length, 1, "the browser retries by itself while CONNECTING");
source.connectionFails(FakeEventSource.CLOSED);
assert.equal(FakeEventSource.instances.length, 2, "a closed stream is reopened");

const second = FakeEventSource.instances[1];
second.serverSends("hello", "server-1");
assert.equal(reloads, 5, "the same server does not cause a reload");
second.serverSends("hello", "server-2");
assert.equal(reloads, 6, "a restarted server reloads the page");

console.log("reload client ok");
