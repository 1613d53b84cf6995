// No stale tutorials in the site's JupyterLite. JupyterLite keeps a notebook the reader
// saved in the browser (IndexedDB) and shows that copy instead of the site's file. Before
// the app starts (lite/notebooks/index.html waits for window.agentmsgFresh), this script
// compares the hash the site's file had when the reader first opened it with the hash of
// this build (agentmsg-contents.json). When the tutorial changed, the reader's copy is
// moved aside under a new name, so the new version opens, and a notice in the notebook's
// language links to the copy. An unchanged tutorial shows nothing.
window.agentmsgFresh = (function () {
  "use strict";
  var ORIGIN = "agentmsg-lite-origin:";
  var root = new URL("../", window.location.href);

  function request(action) {
    return new Promise(function (resolve, reject) {
      action.onsuccess = function () { resolve(action.result); };
      action.onerror = function () { reject(action.error); };
    });
  }

  async function storage() {
    var name = "JupyterLite Storage - " + root.pathname;
    if (!indexedDB.databases) {
      return null;
    }
    var known = await indexedDB.databases();
    if (!known.some(function (db) { return db.name === name; })) {
      return null; // never open (and so create) a database JupyterLite has not made
    }
    var db = await request(indexedDB.open(name));
    if (!db.objectStoreNames.contains("files")) {
      db.close();
      return null;
    }
    return db;
  }

  function notice(strings, kept, href) {
    var box = document.createElement("div");
    box.id = "agentmsg-fresh-notice";
    box.setAttribute("role", "status");
    box.style.cssText =
      "position:fixed;z-index:10000;left:50%;bottom:1rem;transform:translateX(-50%);" +
      "max-width:40rem;padding:.75rem 1rem;border-radius:.4rem;background:#fff8e1;" +
      "color:#222;border:1px solid #c9a200;font:14px/1.4 system-ui,sans-serif;";
    var words = document.createElement("span");
    words.textContent = strings.changed.replace("%s", kept) + " ";
    var link = document.createElement("a");
    link.href = href;
    link.textContent = strings.open;
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = "×";
    close.setAttribute("aria-label", strings.close);
    close.style.cssText = "margin-left:.75rem;border:0;background:none;font-size:1.1rem;cursor:pointer";
    close.addEventListener("click", function () { box.remove(); });
    box.append(words, link, close);
    document.body.appendChild(box);
  }

  async function check() {
    var path = new URLSearchParams(window.location.search).get("path");
    if (!path) {
      return;
    }
    var response = await fetch(new URL("agentmsg-contents.json", root), { cache: "no-cache" });
    var manifest = await response.json();
    var hash = manifest.files[path];
    if (!hash) {
      return;
    }
    var origin = window.localStorage.getItem(ORIGIN + path);
    var db = await storage();
    var stored = db && (await request(db.transaction("files").objectStore("files").get(path)));
    if (!stored || origin === null || origin === hash) {
      window.localStorage.setItem(ORIGIN + path, hash); // the version the reader starts from
      if (db) {
        db.close();
      }
      return;
    }
    var kept = path.replace(/\.ipynb$/, "") + "-" + origin.slice(0, 8) + ".ipynb";
    var copy = Object.assign({}, stored, { path: kept, name: kept.split("/").pop() });
    var files = db.transaction("files", "readwrite").objectStore("files");
    await request(files.put(copy, kept));
    await request(files.delete(path));
    db.close();
    window.localStorage.setItem(ORIGIN + path, hash);
    var strings = manifest.notices[path.split("/")[0]] || manifest.notices.en;
    var href = "?path=" + encodeURIComponent(kept);
    var show = function () { notice(strings, kept, href); };
    if (document.body) {
      show();
    } else {
      document.addEventListener("DOMContentLoaded", show);
    }
  }

  // Never in the app's way: whatever fails here, JupyterLite still starts.
  return check().catch(function (error) {
    console.warn("agentmsg: could not compare the saved notebook with the site's", error);
  });
})();
