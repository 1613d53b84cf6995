// agentmsg's in-page runner: one Pyodide per page, in this module worker. runner.js starts
// it on the first sign of intent and talks to it with messages:
//   in:  {type: "init", indexURL, language, files: [[path, url], ...]}
//        {type: "run", id, code}
//   out: {type: "progress", stage}   stage: "runtime" | "package" | "files"
//        {type: "ready"} | {type: "failed", stage, reason}
//        {type: "result", id, text, html, error}
// Every failure is posted back: the page never waits for an answer that cannot come.

// Runs a cell as sphinx-gallery does: the printed text, then the last expression's value
// (its _repr_html_ when it has one, else its repr), or the traceback of the cell's frames.
const HELPER = `
import ast, contextlib, io, linecache, traceback

import agentmsg

_namespace = {"__name__": "__main__"}


def _agentmsg_run(code):
    out = io.StringIO()
    html = None
    error = None
    linecache.cache["<cell>"] = (len(code), None, code.splitlines(True), "<cell>")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            tree = ast.parse(code, "<cell>", "exec")
            last = None
            if tree.body and isinstance(tree.body[-1], ast.Expr):
                last = ast.Expression(tree.body.pop().value)
            exec(compile(tree, "<cell>", "exec"), _namespace)
            if last is not None:
                value = eval(compile(last, "<cell>", "eval"), _namespace)
                if value is not None:
                    shown = getattr(value, "_repr_html_", None)
                    html = shown() if callable(shown) else None
                    if html is None and repr(value) != "None":
                        out.write(("\\n" if out.getvalue() else "") + repr(value))
        except BaseException as caught:
            frames = traceback.extract_tb(caught.__traceback__)
            ours = [i for i, frame in enumerate(frames) if frame.filename == "<cell>"]
            if not ours:  # a syntax error: no frame of the cell ran
                error = "".join(traceback.format_exception_only(type(caught), caught))
            else:
                tb = caught.__traceback__
                for _ in range(ours[0]):  # drop the runner's own frames
                    tb = tb.tb_next
                error = "".join(traceback.format_exception(type(caught), caught, tb))
    return out.getvalue(), html, error
`;

let pyodide = null;
let stage = "runtime";
let failed = false;

function fail(reason) {
  if (!failed && !pyodide) {
    failed = true;
    self.postMessage({ type: "failed", stage, reason: String(reason) });
  }
}

function describe(value) {
  return value && value.message ? value.message : String(value);
}

// Pyodide reports a wasm download that failed on the console and then waits for ever:
// that report, and anything else thrown while loading, fails the start instead.
const problems = [];
for (const level of ["warn", "error"]) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    original(...args);
    if (pyodide || failed) {
      return;
    }
    problems.push(args.map(describe).join(" "));
    if (problems.some((text) => /instantiation failed/i.test(text))) {
      setTimeout(() => fail("pyodide.asm.wasm: " + problems.join(" ")), 0);  // the next report
    }
  };
}
self.addEventListener("unhandledrejection", (event) => {
  // Two turns later: the console's report of the same failure, naming the file, goes first.
  setTimeout(() => setTimeout(() => fail(describe(event.reason)), 0), 0);
});
self.addEventListener("error", (event) => fail(event.message));

async function fetchFile(url) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`${url}: HTTP ${response.status}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}

async function init(message) {
  try {
    stage = "runtime";
    self.postMessage({ type: "progress", stage });
    const { loadPyodide } = await import(message.indexURL + "pyodide.mjs");
    const loaded = await loadPyodide({ indexURL: message.indexURL, packages: [] });
    if (failed) {
      return;
    }
    stage = "package";
    self.postMessage({ type: "progress", stage });
    // From the lock file beside pyodide.mjs: the wheel the site serves, nothing else.
    const missing = [];
    await loaded.loadPackage("agentmsg", {
      messageCallback: () => {},
      errorCallback: (text) => missing.push(text),
    });
    if (missing.length) {
      throw new Error(missing.join("\n"));
    }
    stage = "files";
    self.postMessage({ type: "progress", stage });
    for (const [path, url] of message.files) {
      const folder = path.split("/").slice(0, -1).join("/");
      if (folder) {
        loaded.FS.mkdirTree(folder);
      }
      loaded.FS.writeFile(path, await fetchFile(url));
    }
    loaded.runPython(HELPER);
    loaded.globals.get("agentmsg").set_display_language(message.language);
    pyodide = loaded;
    self.postMessage({ type: "ready" });
  } catch (error) {
    fail(describe(error));
  }
}

function run(message) {
  let result;
  try {
    const answer = pyodide.globals.get("_agentmsg_run")(message.code);
    const [text, html, error] = answer.toJs();
    answer.destroy();
    result = { type: "result", id: message.id, text, html: html ?? null, error: error ?? null };
  } catch (error) {
    result = { type: "result", id: message.id, text: "", html: null, error: String(error) };
  }
  self.postMessage(result);
}

let started = null;
self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "init") {
    started = init(message);
  } else if (message.type === "run") {
    await started;
    if (pyodide) {
      run(message);
    }
  }
};
