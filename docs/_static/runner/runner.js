// agentmsg's in-page runner: every code block of a tutorial page can be edited and run
// in place. The blocks share one Pyodide in a Web Worker (worker.js), served by the site
// (lite/static/pyodide/), started at the first sign of intent: focus, pointer or click.
(function () {
  "use strict";

  var config = document.getElementById("agentmsg-runner");
  if (!config || !window.Worker) {
    return;
  }
  config = JSON.parse(config.textContent);
  var strings = config.strings;
  // The texts the page's language shows in English: marked lang="en" where they stand.
  var english = (config.english || []).map(function (key) {
    return strings[key];
  });
  var BLOCKS = "div.highlight-Python";
  var CAPTURED = "sphx-glr-script-out";
  var CAPTURED_HTML = "rendered_html";

  var worker = null;
  var state = "idle"; // idle | loading | ready | failed
  var failure = "";
  var waiting = []; // runs asked for before Python was ready
  var pending = {}; // id -> callback, runs sent to the worker
  var nextId = 1;
  var blocks = [];

  function format(text, value) {
    return text.replace("%s", value);
  }

  function absolute(url) {
    return new URL(url, document.baseURI).href;
  }

  // -- the worker -----------------------------------------------------------------------

  function start() {
    if (worker) {
      return;
    }
    state = "loading";
    showStatus(strings.loading_runtime);
    try {
      worker = new Worker(absolute(config.worker), { type: "module" });
    } catch (error) {
      failed(String(error));
      return;
    }
    var own = worker;
    worker.onmessage = function (event) {
      if (own === worker) {
        receive(event.data);
      }
    };
    worker.onerror = function (event) {
      if (own === worker) {
        event.preventDefault();
        failed(event.message || strings.worker_error);
      }
    };
    worker.onmessageerror = worker.onerror;
    worker.postMessage({
      type: "init",
      indexURL: absolute(config.pyodide),
      language: config.language,
      files: config.files.map(function (file) {
        return [file[0], absolute(file[1])];
      }),
    });
  }

  function receive(message) {
    if (message.type === "progress") {
      showStatus(strings["loading_" + message.stage]);
    } else if (message.type === "ready") {
      state = "ready";
      var queued = waiting;
      waiting = [];
      queued.forEach(send);
    } else if (message.type === "failed") {
      failed(message.reason);
    } else if (message.type === "result") {
      var callback = pending[message.id];
      delete pending[message.id];
      if (callback) {
        callback(message);
      }
    }
  }

  function failed(reason) {
    state = "failed";
    failure = reason;
    var queued = waiting;
    waiting = [];
    for (var id in pending) {
      queued.push({ id: id, callback: pending[id] });
    }
    pending = {};
    queued.forEach(function (job) {
      job.callback({ failed: true });
    });
  }

  function send(job) {
    pending[job.id] = job.callback;
    worker.postMessage({ type: "run", id: job.id, code: job.code });
  }

  function execute(code, callback) {
    start();
    var job = { id: nextId++, code: code, callback: callback };
    if (state === "ready") {
      send(job);
    } else if (state === "failed") {
      callback({ failed: true });
    } else {
      waiting.push(job);
    }
  }

  function reset() {
    if (worker) {
      worker.terminate();
    }
    worker = null;
    state = "idle";
    failure = "";
    waiting = [];
    pending = {};
    blocks.forEach(function (block) {
      block.ran = false;
      block.busy = false;
      block.output.hidden = true;
      block.output.textContent = "";
      block.output.removeAttribute("data-state");
      block.captured.forEach(function (node) {
        node.classList.remove("agentmsg-run-replaced");
      });
    });
  }

  // -- the blocks -------------------------------------------------------------------------

  function say(element, text) {
    element.textContent = text;
    if (english.indexOf(text) >= 0) {
      element.lang = "en";
    } else {
      element.removeAttribute("lang");
    }
  }

  function showStatus(text) {
    blocks.forEach(function (block) {
      if (block.busy) {
        say(block.status, text);
      }
    });
  }

  function textBox(text, kind) {
    var box = document.createElement("div");
    box.className = CAPTURED + " highlight-none notranslate agentmsg-run-" + kind;
    var highlight = document.createElement("div");
    highlight.className = "highlight";
    var pre = document.createElement("pre");
    pre.textContent = text;
    highlight.appendChild(pre);
    box.appendChild(highlight);
    return box;
  }

  function show(block, result) {
    block.busy = false;
    block.output.textContent = "";
    if (result.failed) {
      block.output.setAttribute("data-state", "failed");
      block.output.appendChild(textBox(format(strings.failed, failure), "failure"));
      return;
    }
    block.ran = true;
    block.output.setAttribute("data-state", result.error ? "error" : "done");
    var text = result.text.replace(/\s+$/, "");
    if (result.error) {
      text = (text ? text + "\n\n" : "") + result.error.replace(/\s+$/, "");
    }
    if (text) {
      block.output.appendChild(textBox(text, result.error ? "error" : "text"));
    }
    if (result.html !== null) {
      var rich = document.createElement("div");
      rich.className = "output_subarea output_html " + CAPTURED_HTML + " output_result";
      rich.innerHTML = result.html;
      block.output.appendChild(rich);
    }
    if (!text && result.html === null) {
      block.output.hidden = true;
    }
  }

  function runOne(block) {
    block.busy = true;
    block.output.setAttribute("data-state", "running");
    block.captured.forEach(function (node) {
      node.classList.add("agentmsg-run-replaced");
    });
    block.output.hidden = false;
    block.output.textContent = "";
    block.status = document.createElement("p");
    block.status.className = "agentmsg-run-status";
    say(block.status, state === "ready" ? strings.running : strings.loading_runtime);
    block.output.appendChild(block.status);
    execute(block.pre.innerText, function (result) {
      show(block, result);
    });
  }

  // Runs the blocks above that have not run yet, then this one: the state is the page's.
  function run(block) {
    for (var i = 0; i < block.index; i++) {
      if (!blocks[i].ran && !blocks[i].busy) {
        runOne(blocks[i]);
      }
    }
    runOne(block);
  }

  function button(label, title, action) {
    var control = document.createElement("button");
    control.type = "button";
    say(control, label);
    control.title = title;
    control.addEventListener("click", action);
    return control;
  }

  function attach(container, index) {
    var pre = container.querySelector("pre");
    if (!pre) {
      return;
    }
    var block = { index: index, pre: pre, ran: false, busy: false, captured: [] };
    for (var node = container.nextElementSibling; node; node = node.nextElementSibling) {
      var classes = node.classList;
      if (classes.contains(CAPTURED) || classes.contains(CAPTURED_HTML)) {
        block.captured.push(node);
      } else {
        break;
      }
    }
    pre.setAttribute("contenteditable", "plaintext-only");
    pre.setAttribute("spellcheck", "false");
    pre.setAttribute("role", "textbox");
    pre.setAttribute("aria-multiline", "true");
    pre.setAttribute("aria-label", strings.editor_label);
    pre.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && event.shiftKey) {
        event.preventDefault();
        run(block);
      }
    });
    var bar = document.createElement("div");
    bar.className = "agentmsg-run-bar";
    bar.appendChild(button(strings.run, strings.run_title, function () { run(block); }));
    bar.appendChild(button(strings.reset, strings.reset_title, reset));
    container.appendChild(bar);
    block.output = document.createElement("div");
    block.output.className = "agentmsg-run-output";
    block.output.setAttribute("data-block", String(index));
    block.output.setAttribute("aria-live", "polite");
    block.output.hidden = true;
    var after = block.captured.length ? block.captured[block.captured.length - 1] : container;
    after.insertAdjacentElement("afterend", block.output);
    ["focusin", "pointerenter", "pointerdown"].forEach(function (name) {
      container.addEventListener(name, start, { once: true, passive: true });
    });
    blocks.push(block);
  }

  function ready() {
    var found = document.querySelectorAll(BLOCKS);
    for (var i = 0; i < found.length; i++) {
      attach(found[i], blocks.length);
    }
    document.documentElement.classList.add("agentmsg-runner-ready");
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
