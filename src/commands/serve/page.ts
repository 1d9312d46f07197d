/**
 * The one static page of `omc-top serve`, bundled as strings (no file to
 * find at run time, no framework). Text reaches the page through
 * textContent only, never as HTML. The page itself holds nothing of this machine: it is served before any token is
 * checked, so what the config file says (its path, its fault) comes with the token, as the first event of the
 * stream (`event: config`), and the script shows it. The token comes from the URL fragment (never sent to the
 * server by the browser) and goes in a header.
 */
import { APPLY_DELTA_JS } from './delta.js';
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>omc-top</title>
<link rel="stylesheet" href="/app.css">
</head>
<body>
<header><h1>omc-top</h1><span id="count">…</span><span id="quota"></span><span id="conn"></span></header>
<p id="message" role="status"></p>
<section id="confirm" hidden>
  <h2 id="confirm-title"></h2>
  <ul id="confirm-lines"></ul>
  <p id="confirm-prompt"></p>
  <button id="confirm-yes">Confirm</button> <button id="confirm-no">Back</button>
</section>
<main id="roots"></main>
<script src="/app.js"></script>
</body>
</html>
`;

export const PAGE_CSS = `body{font:15px/1.4 system-ui,sans-serif;margin:0;background:#111;color:#ddd}
header{display:flex;gap:1em;align-items:baseline;padding:.5em 1em;background:#222;position:sticky;top:0}
h1{font-size:1.1em;margin:0}h2{font-size:1em;margin:.8em 0 .3em}
#count.need{color:#fb4;font-weight:bold}#conn{color:#888;margin-left:auto;font-size:.85em}
main,#message,#confirm,#config{padding:0 1em}#message{min-height:1.2em;color:#9cf}#config{color:#f88}.guess{color:#fb4;margin:.2em 0}
#confirm{background:#332;border:1px solid #775;margin:.5em 1em;padding:.5em 1em}
.root{border-top:1px solid #333;margin-top:.5em}
.acked{color:#888;font-size:.9em}.lost{color:#f66}.problems{list-style:none;padding:0;margin:.2em 0}.need{list-style:none;padding:0;margin:0}.need li{padding:.3em 0;color:#fb4}
.row{display:grid;grid-template-columns:1fr auto;gap:.2em .8em;padding:.4em 0;border-bottom:1px solid #222}
.row .modes{grid-column:1/3;color:#aaa;font-size:.9em}.status{color:#8c8}
h3{font-size:.95em;margin:.6em 0 .2em;color:#fb4}.answers{list-style:none;padding:0;margin:0}
.answers li{padding:.4em 0;border-bottom:1px solid #332}.asks{color:#fb4}.detail{color:#999;font-size:.85em;white-space:pre-wrap}
.acts{margin-top:.3em}.outcomes{list-style:none;padding:0;margin:.3em 0;font-size:.9em}
.outcomes .success{color:#8c8}.outcomes .error{color:#f88}.outcomes .info{color:#9cf}
button{font:inherit;padding:.2em .7em;margin:0 .2em;background:#333;color:#eee;border:1px solid #555;border-radius:4px}
@media (min-width:700px){.row{grid-template-columns:14em 8em 1fr auto}.row .modes{grid-column:auto}}
`;

export const PAGE_JS = `'use strict';
(function () {
  var token = (location.hash || '').slice(1) || sessionStorage.getItem('omc-top-token') || '';
  if (token) sessionStorage.setItem('omc-top-token', token);
  var $ = function (id) { return document.getElementById(id); };
  var el = function (tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  };
  var say = function (text) { $('message').textContent = text; };
  // The config file's line (serve's stderr's words), sent only to a client with the token: at the top of the page.
  function showConfig(text) {
    var p = $('config');
    if (!p) {
      p = el('p');
      p.id = 'config';
      p.setAttribute('role', 'alert');
      document.body.insertBefore(p, $('message'));
    }
    p.textContent = text;
  }
  // Text from .omc (or from Claude) among omc-top's own words gets its own bidi run: a right-to-left phase must not
  // take the neighbouring words and digits into its run ("9 s ago" drawn inside a Hebrew phase). <bdi> isolates it
  // and takes its direction from its own first strong character.
  var bdi = function (text) { return el('bdi', text); };
  // An element of pieces: a string is omc-top's own text, an element (a bdi) is put in as it is.
  var line = function (tag, parts, cls) {
    var e = el(tag, null, cls);
    parts.forEach(function (x) { e.appendChild(typeof x === 'string' ? document.createTextNode(x) : x); });
    return e;
  };
  var LOOP_STATUSES = ['enforced', 'not-enforced', 'pending', 'stale', 'paused'];
  function post(path, body) {
    return fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-omc-top-token': token },
      body: JSON.stringify(body),
    }).then(function (r) {
      return r.json().then(function (j) { return { status: r.status, body: j }; });
    });
  }
  function ago(ms) {
    if (!ms) return '';
    var s = Math.max(0, Math.round((Date.now() - ms) / 1000));
    return s < 60 ? s + ' s ago' : s < 3600 ? Math.round(s / 60) + ' min ago' : Math.round(s / 3600) + ' h ago';
  }
  // A plan shown first (what would be done, the TUI's dialog words), then done only for that plan on Confirm.
  function askPlan(path, body) {
    post(path, body).then(function (r) {
      if (r.status !== 200) return say(r.body.error || 'refused');
      $('confirm-title').textContent = r.body.title;
      var ul = $('confirm-lines');
      ul.textContent = '';
      r.body.lines.forEach(function (l) { ul.appendChild(el('li', l)); });
      $('confirm-prompt').textContent = r.body.prompt;
      $('confirm').hidden = false;
      $('confirm-yes').onclick = function () {
        $('confirm').hidden = true;
        say('working…');
        post('/api/confirm', { plan: r.body.plan }).then(function (d) {
          say(d.body.summary || d.body.error || 'done');
        });
      };
      $('confirm-no').onclick = function () { $('confirm').hidden = true; say('nothing was changed'); };
    });
  }
  function askCancel(root, session, pause) {
    askPlan('/api/cancel/plan', { root: root, session: session, pause: pause });
  }
  function ackButton(r, n) {
    var ack = el('button', 'Acknowledge');
    ack.dataset.ack = n.id;
    ack.onclick = function () {
      post('/api/ack', { root: r.id, ids: [n.id] }).then(function (d) { say(d.body.message || d.body.error); });
    };
    return ack;
  }
  function button(text, decision, onclick) {
    var b = el('button', text);
    b.dataset.decision = decision;
    b.onclick = onclick;
    return b;
  }
  // Permission requests answer at once (the TUI's y / n / A), bound to the request and digest shown;
  // an OMC gate is planned, then decided on Confirm (the TUI's dialog).
  function renderAnswers(r, sec) {
    if (r.answers.length === 0) return;
    sec.appendChild(el('h3', 'To answer'));
    var ul = el('ul', null, 'answers');
    r.answers.forEach(function (a) {
      var li = el('li');
      li.dataset.answer = a.id;
      li.appendChild(line('div', [bdi(a.text)], 'asks'));
      a.detail.forEach(function (d) { li.appendChild(line('div', [bdi(d)], 'detail')); });
      var acts = el('div', null, 'acts');
      // The need this prompt is (a Claude with no OMC loop): listed here only, acknowledged from here.
      var need = r.needs.filter(function (n) { return n.answeredAs === a.id; })[0];
      if (need) acts.appendChild(ackButton(r, need));
      else if (r.acked.some(function (n) { return n.answeredAs === a.id; })) li.appendChild(el('div', 'acknowledged: not counted until it arises anew', 'acked'));
      if (r.local && a.kind === 'permission') {
        var answer = function (decision) {
          return function () {
            post('/api/permission', { root: r.id, request: a.request, digest: a.digest, decision: decision }).then(function (d) {
              say(d.body.message || d.body.error);
            });
          };
        };
        if (a.allow) acts.appendChild(button('Allow once', 'allow', answer('allow')));
        acts.appendChild(button('Deny', 'deny', answer('deny')));
        if (a.always) acts.appendChild(button('Always allow this command', 'always', answer('always')));
      } else if (r.local && a.kind === 'gate') {
        var decide = function (decision) {
          return function () { askPlan('/api/gate/plan', { root: r.id, run: a.run, activation: a.activation, decision: decision }); };
        };
        acts.appendChild(button('Approve…', 'approved', decide('approved')));
        acts.appendChild(button('Deny…', 'denied', decide('denied')));
      }
      li.appendChild(acts);
      ul.appendChild(li);
    });
    sec.appendChild(ul);
  }
  function renderOutcomes(r, sec) {
    if (r.outcomes.length === 0) return;
    var ul = el('ul', null, 'outcomes');
    r.outcomes.forEach(function (o) {
      // One mark, in front, by what was observed (as the TUI's flash line): the words carry none of their own.
      var mark = o.kind === 'success' ? '\u2713 ' : o.kind === 'error' ? '\u2717 ' : '';
      var li = line('li', [new Date(o.at).toISOString().slice(11, 19) + ' ' + mark, bdi(o.text)], o.kind);
      ul.appendChild(li);
    });
    sec.appendChild(ul);
  }
  function render(p) {
    var c = $('count');
    var down = p.roots.filter(function (r) { return r.connection; }).length;
    c.textContent = (p.count > 0 ? 'needs you: ' + p.count : 'nothing needs you') + (down > 0 ? ' · ' + down + ' host' + (down === 1 ? '' : 's') + ' not live' : '');
    c.className = p.count > 0 ? 'need' : '';
    // This machine's plan quota, in the monitor header's words (one for every local root).
    var q = p.roots.filter(function (r) { return r.local && r.quota; })[0];
    $('quota').textContent = q ? q.quota.text : '';
    var main = $('roots');
    main.textContent = '';
    p.roots.forEach(function (r) {
      var sec = el('section', null, 'root');
      sec.dataset.root = r.id;
      sec.appendChild(line('h2', [bdi(r.project), r.host ? ' @ ' + r.host : '']));
      // No OMC found: every status below is a guess by the newest rules (the monitor header's words).
      if (r.omcGuess) sec.appendChild(el('p', r.omcGuess, 'guess'));
      if (r.connection) sec.appendChild(el('p', r.connection + ' (its rows below are as last seen)', 'lost'));
      // Its problem lines (what its monitor shows under its header), as the monitor says them.
      if (r.problemCount > 0) {
        var probs = el('ul', null, 'problems');
        r.problems.forEach(function (x) {
          probs.appendChild(line('li', ['\u26a0 ', bdi(x.path), ': ', bdi(x.message)], x.severity === 'error' ? 'lost' : 'guess'));
        });
        if (r.problemCount > r.problems.length) probs.appendChild(el('li', '+' + (r.problemCount - r.problems.length) + ' more problems', 'acked'));
        sec.appendChild(probs);
      }
      // That machine's plan quota (its header's narrow words: no countdown to go stale here).
      if (!r.local && r.quota) sec.appendChild(el('p', 'plan quota there: ' + r.quota.short, 'acked'));
      if (!r.local) sec.appendChild(el('p', 'on ' + r.host + ': cancel, pause and acknowledge run there over ssh; its permission prompts and OMC gates are answered there', 'acked'));
      renderAnswers(r, sec);
      renderOutcomes(r, sec);
      var needs = el('ul', null, 'need');
      r.needs.forEach(function (n) {
        if (n.answeredAs) return;
        var who = n.name || (n.sessionless ? '(legacy)' : n.session ? n.session.slice(0, 8) : n.team ? 'team ' + n.team : '');
        var li = line('li', ['! ', bdi(who)].concat(n.tmux ? [' (', bdi(n.tmux), ')'] : [], [': ', bdi(n.reason)], n.waitingOn ? [' · ', bdi(n.waitingOn)] : []));
        li.dataset.need = n.id;
        li.appendChild(ackButton(r, n));
        needs.appendChild(li);
      });
      sec.appendChild(needs);
      var acked = r.acked.filter(function (n) { return !n.answeredAs; });
      if (acked.length > 0) {
        var held = ['acknowledged, still holding: '];
        acked.forEach(function (n, i) { held.push(i > 0 ? ', ' : '', bdi(n.reason)); });
        sec.appendChild(line('p', held, 'acked'));
      }
      r.rows.forEach(function (row) {
        var d = el('div', null, 'row');
        d.dataset.session = row.session;
        d.appendChild(line('span', [bdi((row.sessionless ? '(legacy)' : row.session).slice(0, 12))], 'sid'));
        // The row's word as every surface says it ("stopping 47s", "cancel 12s"), on the server's clock.
        d.appendChild(el('span', (row.statusText || row.status) + (row.processText ? ' · ' + row.processText : ''), 'status'));
        // Its modes and the rate limit holding its loop, as every row says them (an older server: its modes).
        d.appendChild(line('span', [bdi(row.modesText || row.modes), ' ' + ago(row.updatedMs)], 'modes'));
        var acts = el('span');
        // A loop omc-top could cancel or pause (planCancel says what, or omc-top cancel on its host).
        if (LOOP_STATUSES.indexOf(row.status) >= 0) {
          var pause = el('button', 'Pause');
          pause.onclick = function () { askCancel(r.id, row.target, true); };
          var cancel = el('button', 'Cancel');
          cancel.onclick = function () { askCancel(r.id, row.target, false); };
          acts.appendChild(pause);
          acts.appendChild(cancel);
        }
        d.appendChild(acts);
        sec.appendChild(d);
      });
      main.appendChild(sec);
    });
  }
  var current = null;
  ${APPLY_DELTA_JS}
  // Server-sent events read with fetch, so the token travels in a header (EventSource cannot set one).
  function connect() {
    current = null;
    $('conn').textContent = 'connecting…';
    fetch('/events', { headers: { 'x-omc-top-token': token } }).then(function (res) {
      if (res.status !== 200) {
        $('conn').textContent = res.status === 401 ? 'wrong or missing token: open the URL omc-top serve printed' : 'refused (' + res.status + ')';
        return;
      }
      $('conn').textContent = 'live';
      var reader = res.body.getReader();
      var dec = new TextDecoder();
      var buf = '';
      function pump() {
        return reader.read().then(function (x) {
          if (x.done) throw new Error('closed');
          buf += dec.decode(x.value, { stream: true });
          var i;
          while ((i = buf.indexOf('\\n\\n')) >= 0) {
            var ev = buf.slice(0, i);
            buf = buf.slice(i + 2);
            var type = 'message';
            ev.split('\\n').forEach(function (line) {
              if (line.indexOf('event: ') === 0) type = line.slice(7);
              else if (line.indexOf('data: ') === 0) {
                var data = JSON.parse(line.slice(6));
                if (type === 'config') return showConfig(data);
                // A whole picture starts every connection; after it, deltas (only what changed) build on it.
                current = type === 'delta' ? applyDelta(current, data) : data;
                render(current);
              }
            });
          }
          return pump();
        });
      }
      // A stream that ends or cannot be applied is let go (not left open beside the reconnect's).
      return pump().catch(function (e) {
        reader.cancel().catch(function () {});
        throw e;
      });
    }).catch(function () {
      $('conn').textContent = 'lost: retrying';
      setTimeout(connect, 2000);
    });
  }
  connect();
})();
`;
