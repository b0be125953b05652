// The hintgate console page. No framework and no build step: the DOM is built with
// createElement and every string from the gateway, a tool or a model goes in as text, never
// as markup.

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];
const SVG = 'http://www.w3.org/2000/svg';
const STATUS_COLORS = {
  ok: '#2f7d32',
  denied: '#b3261e',
  error: '#8d5a00',
  timeout: '#6a1b9a',
  cancelled: '#5f6368',
};

/** An element with attributes (never event handlers) and children (strings become text). */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith('on')) throw new Error('no handlers as attributes');
    node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue;
    node.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
  }
  return node;
}

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  for (const child of children) node.append(typeof child === 'string' ? child : child);
  return node;
}

const state = { csrf: '', mode: null, modes: [], inbox: [], audit: [], lastSeq: 0, tools: null };

async function api(method, path, body) {
  const response = await fetch(`/console/api/${path}`, {
    method,
    credentials: 'same-origin',
    headers:
      method === 'GET' ? {} : { 'Content-Type': 'application/json', 'X-CSRF-Token': state.csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) {
    location.replace('/console/login');
    throw new Error('signed out');
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error ?? `HTTP ${response.status}`);
  return data;
}

const hintText = (hints) =>
  HINTS.map((hint) => `${hint.replace('Hint', '')}: ${hint in hints ? hints[hint] : '—'}`).join(
    ', ',
  );

// ---------------------------------------------------------------------------------- inbox

function annotationTable(item) {
  return el(
    'table',
    { class: 'hints' },
    el(
      'thead',
      {},
      el('tr', {}, el('th', {}, 'hint'), el('th', {}, 'claimed'), el('th', {}, 'effective')),
    ),
    el(
      'tbody',
      {},
      HINTS.map((hint) => {
        const claimed = hint in item.claimed ? String(item.claimed[hint]) : 'absent';
        const effective = String(item.effective[hint]);
        return el(
          'tr',
          { class: claimed !== effective ? 'differs' : undefined },
          el('td', {}, hint),
          el('td', {}, claimed),
          el('td', {}, effective),
        );
      }),
    ),
  );
}

const CHOICE_LABELS = {
  once: 'Allow once',
  session: 'Allow for the session',
  always: 'Allow always',
};

function inboxCard(item) {
  const destructive = item.class === 'destructive';
  const reason = el('input', {
    type: 'text',
    name: 'reason',
    placeholder: 'Reason for denying (told to the model)',
    'aria-label': 'Reason for denying',
    maxlength: 500,
  });
  const status = el('p', { class: 'card-status', role: 'status' });
  const answer = (body) => {
    for (const button of card.querySelectorAll('button')) button.disabled = true;
    api('POST', `inbox/${encodeURIComponent(item.id)}`, body).catch((error) => {
      status.textContent = error.message;
      for (const button of card.querySelectorAll('button')) button.disabled = false;
    });
  };
  const allowButtons = item.choices.map((choice) => {
    const button = el(
      'button',
      {
        type: 'button',
        class: `allow ${destructive ? '' : choice.remember === 'once' ? 'default' : ''}`,
        'data-remember': choice.remember,
        title: choice.remembers,
      },
      CHOICE_LABELS[choice.remember] ?? choice.remember,
    );
    button.addEventListener('click', () =>
      answer({ decision: 'allow', remember: choice.remember }),
    );
    return el('div', { class: 'choice' }, button, el('span', { class: 'hint' }, choice.remembers));
  });
  const deny = el(
    'button',
    { type: 'button', class: `deny ${destructive ? 'default' : ''}` },
    'Deny',
  );
  deny.addEventListener('click', () => answer({ decision: 'deny', reason: reason.value }));
  const card = el(
    'article',
    {
      class: `card class-${item.class}`,
      'data-id': item.id,
      'aria-label': `${item.tool.name} of ${item.server}`,
    },
    el(
      'header',
      {},
      el('h3', {}, item.tool.name),
      el('span', { class: 'server' }, `server ${item.server}`),
      el('span', { class: `badge class-${item.class}` }, item.class),
      el(
        'span',
        { class: 'badge' },
        item.trusted ? 'annotations trusted' : 'annotations not trusted',
      ),
    ),
    item.tool.title ? el('p', { class: 'title' }, item.tool.title) : null,
    el('p', { class: 'description' }, item.tool.description),
    el('p', { class: 'reason' }, el('strong', {}, 'Why it asks: '), item.reason),
    annotationTable(item),
    el('h4', {}, 'Arguments'),
    el('pre', { class: 'arguments' }, JSON.stringify(item.arguments, null, 2)),
    el('h4', {}, 'Approval keys'),
    el(
      'ul',
      { class: 'keys' },
      item.keys.map((key) => el('li', {}, key)),
    ),
    item.opaque.length === 0
      ? null
      : el(
          'ul',
          { class: 'opaque' },
          item.opaque.map((part) => el('li', {}, part)),
        ),
    el(
      'div',
      { class: 'choices' },
      allowButtons,
      el('div', { class: 'choice deny-row' }, reason, deny),
    ),
    status,
    el(
      'p',
      { class: 'hint' },
      `call ${item.callId}, waiting since ${new Date(item.since).toLocaleTimeString()}`,
    ),
  );
  return card;
}

function renderInbox() {
  const list = document.getElementById('inbox-list');
  const focused = document.activeElement?.closest?.('article')?.dataset.id;
  const keep = new Map([...list.children].map((card) => [card.dataset.id, card]));
  const cards = state.inbox.map((item) => keep.get(item.id) ?? inboxCard(item));
  list.replaceChildren(...cards);
  document.getElementById('inbox-empty').hidden = state.inbox.length > 0;
  document.getElementById('inbox-count').textContent = String(state.inbox.length);
  if (
    focused === undefined &&
    cards.length > 0 &&
    location.hash !== '#audit' &&
    location.hash !== '#tools'
  ) {
    cards[0].querySelector('button.default')?.focus({ preventScroll: true });
  }
}

// ---------------------------------------------------------------------------------- audit

/** Calls (grouped by batch and call id) and the gateway's own events, newest first. */
function auditRows() {
  const calls = new Map();
  const rows = [];
  for (const { event } of state.audit) {
    if (event.callId === undefined) {
      rows.push({
        key: `${event.type}-${rows.length}`,
        events: [event],
        first: event,
        last: event,
      });
      continue;
    }
    const key = `${event.batchId ?? ''}\u0000${event.callId}`;
    let row = calls.get(key);
    if (row === undefined) {
      row = { key, events: [] };
      calls.set(key, row);
      rows.push(row);
    }
    row.events.push(event);
  }
  for (const row of rows) {
    row.first = row.events[0];
    row.last = row.events[row.events.length - 1];
    row.end = row.events.find((e) => e.type === 'call.succeeded' || e.type === 'call.failed');
    row.approval = row.events.find(
      (e) => e.type === 'approval.granted' || e.type === 'approval.denied',
    );
    const any = row.end ?? row.last;
    row.tool = any.tool ?? '';
    row.server = any.origin ?? '';
    row.class = any.class ?? '';
    row.decision = row.end?.decision ?? any.decision ?? '';
    row.status =
      row.end?.status ?? (row.first.type.startsWith('call.') ? 'running' : row.first.type);
    row.client = any.caller?.client?.name ?? '';
    const by = row.approval?.answeredBy ?? any.changedBy;
    row.answeredBy = by === undefined ? '' : `${by.channel}${by.who ? `: ${by.who}` : ''}`;
    row.time = Date.parse(row.first.time);
  }
  return rows.reverse();
}

function filtered(rows) {
  const form = new FormData(document.getElementById('audit-filters'));
  const tool = String(form.get('tool') ?? '').toLowerCase();
  const client = String(form.get('client') ?? '').toLowerCase();
  const from = form.get('from') ? Date.parse(String(form.get('from'))) : -Infinity;
  const to = form.get('to') ? Date.parse(String(form.get('to'))) : Infinity;
  return rows.filter(
    (row) =>
      row.tool.toLowerCase().includes(tool) &&
      row.client.toLowerCase().includes(client) &&
      (!form.get('server') || row.server === form.get('server')) &&
      (!form.get('decision') || row.decision === form.get('decision')) &&
      (!form.get('status') || row.status === form.get('status')) &&
      row.time >= from &&
      row.time <= to,
  );
}

function syncOptions(select, values) {
  const current = select.value;
  const wanted = ['', ...[...values].filter(Boolean).sort()];
  if ([...select.options].map((o) => o.value).join('\n') === wanted.join('\n')) return;
  select.replaceChildren(
    ...wanted.map((value) => el('option', { value }, value === '' ? 'all' : value)),
  );
  select.value = wanted.includes(current) ? current : '';
}

function showDetail(row) {
  const detail = document.getElementById('audit-detail');
  const start = Date.parse(row.first.time);
  detail.replaceChildren(
    el('h3', {}, `${row.tool || row.first.type} ${row.server ? `(${row.server})` : ''}`),
    el(
      'ol',
      { class: 'events' },
      row.events.map((event) =>
        el(
          'li',
          {},
          el('strong', {}, event.type),
          ` +${Date.parse(event.time) - start} ms`,
          event.reason ? el('span', { class: 'hint' }, ` ${event.reason}`) : null,
          event.message ? el('div', { class: 'hint' }, event.message) : null,
          event.queuedMs !== undefined
            ? ` queued ${event.queuedMs} ms, ran ${event.runMs} ms, ${event.attempts} attempt(s)`
            : null,
        ),
      ),
    ),
  );
  detail.hidden = false;
}

const ms = (value) => (typeof value === 'number' ? value.toFixed(value < 10 ? 2 : 0) : '');

function renderAudit() {
  const rows = auditRows();
  const filters = document.getElementById('audit-filters');
  syncOptions(filters.elements.server, new Set(rows.map((row) => row.server)));
  syncOptions(filters.elements.status, new Set(rows.map((row) => row.status)));
  const shown = filtered(rows);
  const body = document.querySelector('#audit-table tbody');
  body.replaceChildren(
    ...shown.slice(0, 500).map((row) => {
      const tr = el(
        'tr',
        { tabindex: 0, class: `status-${row.status}` },
        el('td', {}, new Date(row.time).toLocaleTimeString()),
        el('td', {}, row.tool),
        el('td', {}, row.server),
        el('td', {}, row.class),
        el('td', {}, row.decision),
        el('td', {}, row.status),
        el('td', {}, row.answeredBy),
        el('td', {}, row.client),
        el('td', { class: 'num' }, ms(row.end?.queuedMs)),
        el('td', { class: 'num' }, ms(row.end?.runMs)),
      );
      tr.addEventListener('click', () => showDetail(row));
      tr.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') showDetail(row);
      });
      return tr;
    }),
  );
  renderCharts(shown.filter((row) => row.end !== undefined));
}

function renderCharts(calls) {
  const width = 420;
  const height = 140;
  // Calls per minute, stacked by status, over the last 30 minutes that have calls.
  const minutes = new Map();
  for (const row of calls) {
    const minute = Math.floor(row.time / 60000);
    const counts = minutes.get(minute) ?? {};
    counts[row.status] = (counts[row.status] ?? 0) + 1;
    minutes.set(minute, counts);
  }
  const keys = [...minutes.keys()].sort((a, b) => a - b);
  const last = keys[keys.length - 1] ?? Math.floor(Date.now() / 60000);
  const span = Array.from({ length: 30 }, (_, i) => last - 29 + i);
  const max = Math.max(
    1,
    ...span.map((m) => Object.values(minutes.get(m) ?? {}).reduce((a, b) => a + b, 0)),
  );
  const barWidth = width / span.length;
  const bars = svg('svg', {
    viewBox: `0 0 ${width} ${height + 16}`,
    role: 'img',
    'aria-label': 'calls per minute by status',
  });
  span.forEach((minute, index) => {
    let y = height;
    for (const [status, count] of Object.entries(minutes.get(minute) ?? {})) {
      const h = (count / max) * (height - 4);
      y -= h;
      bars.append(
        svg(
          'rect',
          {
            x: index * barWidth + 1,
            y,
            width: barWidth - 2,
            height: h,
            fill: STATUS_COLORS[status] ?? '#1a73e8',
          },
          svg('title', {}, `${new Date(minute * 60000).toLocaleTimeString()}: ${count} ${status}`),
        ),
      );
    }
  });
  bars.append(svg('text', { x: 0, y: height + 14, class: 'axis' }, `max ${max}/min`));
  document.getElementById('chart-minutes').replaceChildren(bars);

  const scatter = svg('svg', {
    viewBox: `0 0 ${width} ${height + 16}`,
    role: 'img',
    'aria-label': 'queue time against run time',
  });
  const maxQ = Math.max(1, ...calls.map((row) => row.end.queuedMs ?? 0));
  const maxR = Math.max(1, ...calls.map((row) => row.end.runMs ?? 0));
  scatter.append(svg('line', { x1: 0, y1: height, x2: width, y2: height, class: 'axis-line' }));
  scatter.append(svg('line', { x1: 0, y1: 0, x2: 0, y2: height, class: 'axis-line' }));
  for (const row of calls.slice(0, 500)) {
    scatter.append(
      svg(
        'circle',
        {
          cx: ((row.end.queuedMs ?? 0) / maxQ) * (width - 8) + 4,
          cy: height - ((row.end.runMs ?? 0) / maxR) * (height - 8) - 4,
          r: 3,
          fill: STATUS_COLORS[row.status] ?? '#1a73e8',
        },
        svg('title', {}, `${row.tool}: queued ${row.end.queuedMs} ms, ran ${row.end.runMs} ms`),
      ),
    );
  }
  scatter.append(
    svg(
      'text',
      { x: 0, y: height + 14, class: 'axis' },
      `queue → max ${Math.round(maxQ)} ms; run ↑ max ${Math.round(maxR)} ms`,
    ),
  );
  document.getElementById('chart-times').replaceChildren(scatter);
}

// ---------------------------------------------------------------------------------- tools

function renderTools() {
  if (state.tools === null) return;
  const body = document.querySelector('#tools-table tbody');
  const rows = [];
  for (const tool of state.tools.tools) {
    const flags = [
      tool.trusted ? 'trusted' : 'not trusted',
      tool.pin?.verdict === 'verified'
        ? 'verified'
        : tool.pin?.verdict
          ? `probe: ${tool.pin.verdict}`
          : 'not verified',
      tool.pin ? (tool.pin.status === 'pinned' ? 'pinned' : tool.pin.status) : null,
      tool.heldBack ? 'held back' : null,
      tool.requireApproval ? 'every call asks' : null,
    ].filter(Boolean);
    const limits = [
      tool.rateLimit ? `rate ${tool.rateLimit.max} per ${tool.rateLimit.windowMs} ms` : null,
      tool.concurrency
        ? `server runs up to ${tool.concurrency} call(s) at once`
        : 'no concurrency cap',
      tool.timeoutMs ? `timeout ${tool.timeoutMs} ms` : null,
    ].filter(Boolean);
    rows.push(
      el(
        'tr',
        {
          class: tool.heldBack ? 'held-back' : tool.offered ? undefined : 'not-offered',
          'data-tool': tool.name,
        },
        el(
          'td',
          {},
          tool.name,
          tool.nameOnServer && tool.nameOnServer !== tool.name
            ? el('div', { class: 'hint' }, `on the server: ${tool.nameOnServer}`)
            : null,
        ),
        el('td', {}, tool.server),
        el(
          'td',
          {},
          tool.layer,
          tool.shadows.length
            ? el(
                'div',
                { class: 'hint' },
                `shadows ${tool.shadows.map((s) => `${s.origin} (${s.layer})`).join(', ')}`,
              )
            : null,
        ),
        el('td', { class: 'hint-cell' }, hintText(tool.claimed)),
        el('td', { class: 'hint-cell' }, `${tool.class}: ${hintText(tool.effective)}`),
        el(
          'td',
          {},
          flags.map((flag) =>
            el('span', { class: `badge flag-${flag.replaceAll(' ', '-')}` }, flag),
          ),
        ),
        el('td', {}, limits.join('; ')),
      ),
    );
    if (tool.heldBack || tool.pin?.review) {
      rows.push(
        el(
          'tr',
          { class: 'review' },
          el(
            'td',
            { colspan: 7 },
            tool.heldBack ? el('p', {}, el('strong', {}, 'Held back: '), tool.heldBack) : null,
            tool.pin?.review ? el('pre', { class: 'diff' }, tool.pin.review.join('\n')) : null,
            el('p', {}, 'Review and pin: ', el('code', {}, state.tools.pinCommand)),
          ),
        ),
      );
    }
  }
  body.replaceChildren(...rows);
}

async function loadTools() {
  state.tools = await api('GET', 'tools');
  renderTools();
}

// ---------------------------------------------------------------------------------- mode

function renderMode(note) {
  const select = document.getElementById('mode-select');
  if (select.options.length !== state.modes.length) {
    select.replaceChildren(...state.modes.map((mode) => el('option', { value: mode }, mode)));
  }
  select.disabled = state.mode === null;
  if (state.mode !== null) select.value = state.mode;
  if (note !== undefined) document.getElementById('mode-note').textContent = note;
}

// ---------------------------------------------------------------------------------- pages

function showPage() {
  const page = ['#audit', '#tools'].includes(location.hash) ? location.hash.slice(1) : 'inbox';
  for (const name of ['inbox', 'audit', 'tools']) {
    document.getElementById(`page-${name}`).hidden = name !== page;
    document
      .getElementById(`nav-${name}`)
      .setAttribute('aria-current', name === page ? 'page' : 'false');
  }
  if (page === 'tools') loadTools().catch(() => {});
}

async function start() {
  const session = await api('GET', 'session');
  state.csrf = session.csrf;
  state.mode = session.mode;
  state.modes = session.modes;
  renderMode();
  document.getElementById('mode-select').addEventListener('change', (event) => {
    const mode = event.target.value;
    api('POST', 'mode', { mode })
      .then(() => renderMode(`switched to ${mode}`))
      .catch((error) => renderMode(error.message));
  });
  document.getElementById('audit-filters').addEventListener('input', renderAudit);
  window.addEventListener('hashchange', showPage);
  showPage();

  const live = document.getElementById('live');
  const events = new EventSource('/console/api/events');
  events.addEventListener('open', () => {
    live.textContent = 'live';
    live.classList.add('on');
  });
  events.addEventListener('error', () => {
    live.textContent = 'reconnecting…';
    live.classList.remove('on');
  });
  events.addEventListener('inbox', (message) => {
    state.inbox = JSON.parse(message.data);
    renderInbox();
  });
  events.addEventListener('mode', (message) => {
    const data = JSON.parse(message.data);
    state.mode = data.mode ?? null;
    renderMode(data.changedBy ? `switched to ${data.mode} by ${data.changedBy.who}` : undefined);
  });
  events.addEventListener('tools', () => {
    if (state.tools !== null) loadTools().catch(() => {});
  });
  events.addEventListener('audit', (message) => {
    const entry = JSON.parse(message.data);
    if (entry.seq <= state.lastSeq) return;
    state.lastSeq = entry.seq;
    state.audit.push(entry);
    renderAudit();
  });
  // History after subscribing; the sequence numbers join it with the stream.
  const history = await api('GET', 'audit');
  const newer = state.audit.filter((entry) => entry.seq > (history.at(-1)?.seq ?? 0));
  state.audit = [...history, ...newer];
  state.lastSeq = Math.max(state.lastSeq, history.at(-1)?.seq ?? 0);
  renderAudit();
}

start().catch((error) => {
  document.getElementById('live').textContent = `failed: ${error.message}`;
});
