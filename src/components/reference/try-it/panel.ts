/**
 * "Try it": the panel the request builder opens on the reader's first click. It starts the
 * sandbox in a dedicated worker (/sandbox-worker.js), sends it the body the reader edits, and
 * shows the exchange. Nothing leaves the page: the worker fetches nothing and the panel sends
 * nothing. The tab keeps the sandbox's subscriptions in its session storage (never local storage,
 * never a cookie), so they follow the reader from one action page to the next and through a
 * reload; the body, the key and the notes in it are never stored.
 */
import type { PanelContract, WorkerQuestion, WorkerReply } from '../../../sandbox/in-browser/protocol.ts';
import type { SimulationState } from '../../../sandbox/in-browser/simulation.ts';
import { answerHeadersText, answerText, baseUrlOf, curlCommand, requestText, type SentRequest } from './exchange.ts';
import { keep, readKept } from './kept-state.ts';
import { panelStyles } from './panel-styles.ts';
import { reasonPhrase } from '../../../sandbox/reason-phrases.ts';
import { bodyGist, statusWords } from './verdict.ts';

/** A question before the panel numbers it. */
type Unnumbered<Q> = Q extends unknown ? Omit<Q, 'id'> : never;

/** A request a guide offers to load into the panel: its body, and the throttle it asks the host for. */
export interface PanelPreset {
  label: string;
  body: Record<string, unknown>;
  /** A `Retry-After` value: the request is sent with the throttle header, as the guide's command is. */
  throttle?: string;
}

export interface PanelOptions {
  action: string;
  /** Where the requests go when no builder gives a site: the guide's own base URL. */
  baseUrl?: string;
  presets?: PanelPreset[];
  /** The builder's inputs, read when the panel fills the body and the URL: the site, the key, the fields. */
  inputs: HTMLInputElement[];
  workerUrl: string;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, properties: Partial<HTMLElementTagNameMap[K]> = {}, children: (Node | string)[] = []): HTMLElementTagNameMap[K] {
  const created = Object.assign(document.createElement(tag), properties);
  created.append(...children);
  return created;
}

function numberInput(id: string, value: string, min: number, max: number): HTMLInputElement {
  return element('input', { id, type: 'number', value, min: String(min), max: String(max), className: 'try-number' });
}

let styled = false;
let nextPanel = 0;

export function openTryPanel(container: HTMLElement, options: PanelOptions): void {
  if (!styled) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(panelStyles);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    styled = true;
  }
  const id = (name: string) => `try-${nextPanel}-${name}`;
  nextPanel += 1;
  const worker = new Worker(options.workerUrl, { type: 'module', name: 'sandbox' });
  let questions = 0;
  // Not `disabled` while starting or sending: a disabled button drops the keyboard focus the reader had on it.
  let sending = true;
  // Once the reader has typed or loaded a body, the example never replaces it.
  let edited = false;
  const waiting = new Map<number, (reply: WorkerReply) => void>();
  worker.onmessage = (event: MessageEvent<WorkerReply>) => {
    const reply = event.data;
    waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id);
  };
  const ask = (question: Unnumbered<WorkerQuestion>): Promise<WorkerReply> =>
    new Promise((resolve) => {
      questions += 1;
      waiting.set(questions, resolve);
      worker.postMessage({ ...question, id: questions });
    });
  // A worker that cannot load or answer (a dropped connection on a phone) must say so, not leave a panel that never answers.
  let failed = false;
  const workerFailed = () => {
    failed = true;
    status.textContent = 'The sandbox could not start in this page. Reload the page to try again.';
    send.setAttribute('aria-disabled', 'true');
    sending = true;
  };
  worker.onerror = workerFailed;
  worker.onmessageerror = workerFailed;

  const kept = readKept();
  const pending = kept?.pending ?? { throttle: 0, retryAfter: '', hostError: 0, hostStatus: 0 };

  const body = element('textarea', { id: id('body'), rows: 9, spellcheck: false, autocomplete: 'off', className: 'try-body' });
  body.setAttribute('aria-describedby', `${id('keys')} ${id('check')}`);
  const check = element('p', { id: id('check'), className: 'try-check' });
  const keys = element('p', { id: id('keys'), className: 'try-hint' });
  const send = element('button', { type: 'button', textContent: 'Send', className: 'try-send' });
  const throttleCount = numberInput(id('throttle-count'), '1', 1, 1);
  // Empty until the sandbox says its default, which then shows as the placeholder.
  const retryAfter = numberInput(id('retry-after'), '', 0, 3600);
  const throttle = element('button', { type: 'button', textContent: 'Throttle' });
  const hostStatus = element('select', { id: id('host-status') });
  const hostError = element('button', { type: 'button', textContent: 'Fail the next request' });
  const queued = element('p', { className: 'try-hint' });
  const status = element('p', { className: 'try-status', role: 'status', textContent: 'Starting the sandbox in this page…' });
  const requestShown = element('pre', { className: 'try-exchange', tabIndex: 0 });
  const answerShown = element('pre', { className: 'try-exchange', tabIndex: 0 });
  const headersShown = element('pre', { className: 'try-exchange', tabIndex: 0 });
  requestShown.setAttribute('aria-label', 'The request as sent');
  answerShown.setAttribute('aria-label', 'The answer as received');
  headersShown.setAttribute('aria-label', 'The headers of the answer');
  const copy = element('button', { type: 'button', textContent: 'Copy as curl', disabled: true });
  // The answer's status line and body first, right under Send; its headers folded, then the request.
  const exchange = element('div', { className: 'try-answer', hidden: true }, [
    element('h4', { textContent: 'Answer' }),
    answerShown,
    element('details', {}, [element('summary', { textContent: 'Headers of the answer' }), headersShown]),
    element('h4', { textContent: 'Request' }),
    requestShown,
    copy,
  ]);
  const table = element('table', { className: 'try-subscriptions' });
  const reset = element('button', { type: 'button', textContent: 'Reset to the seed' });
  const presetButtons = (options.presets ?? []).map((preset) => {
    const button = element('button', { type: 'button', textContent: preset.label });
    button.addEventListener('click', () => {
      body.value = JSON.stringify(preset.body, null, 2);
      edited = true;
      // A request of the guide that asks the host for no throttle is sent without one.
      Object.assign(pending, preset.throttle === undefined ? { throttle: 0 } : { throttle: 1, retryAfter: preset.throttle });
      showQueued();
      keepPending();
      checkBody();
      body.focus();
    });
    return button;
  });
  const sendRow = element('div', { className: 'try-row try-send-row' }, [send]);
  send.setAttribute('aria-disabled', 'true');
  const presets = presetButtons.length === 0 ? [] : [element('p', { textContent: 'Load a request of this guide, then send it:' }), element('div', { className: 'try-row' }, presetButtons)];
  const titleId = id('title');
  const panel = element('section', { className: 'try-panel' }, [
    element('h3', { id: titleId, textContent: 'Try it in this page' }),
    element('p', { textContent: 'The answer comes from a simulation of the sandbox running in your browser: nothing you send leaves this page.' }),
    ...presets,
    element('label', { htmlFor: body.id, textContent: 'Request body (JSON)' }),
    body,
    keys,
    check,
    sendRow,
    status,
    exchange,
    element('fieldset', {}, [
      element('legend', { textContent: 'Answers of the host in front of the site' }),
      element('div', { className: 'try-row' }, [element('label', { htmlFor: throttleCount.id, textContent: 'Requests to throttle' }), throttleCount, element('label', { htmlFor: retryAfter.id, textContent: 'Retry-After (seconds)' }), retryAfter, throttle]),
      element('div', { className: 'try-row' }, [element('label', { htmlFor: hostStatus.id, textContent: 'Host error' }), hostStatus, hostError]),
      queued,
    ]),
    element('h4', { textContent: 'Subscriptions in this tab' }),
    table,
    reset,
  ]);
  panel.setAttribute('aria-labelledby', titleId);
  container.replaceChildren(panel);
  // The editor takes the focus at once; a body typed while the sandbox starts is kept.
  body.focus();

  let contract: PanelContract | undefined;
  let lastSent: SentRequest | undefined;
  const siteInput = options.inputs.find((input) => input.dataset.site !== undefined);

  let lastState: SimulationState | undefined;
  const save = (simulation: SimulationState) => {
    lastState = simulation;
    keep({ simulation, pending });
  };
  /** The host answers asked for live in the tab's storage too, so a reload or another action page keeps them. */
  const keepPending = () => {
    if (lastState !== undefined) save(lastState);
  };
  const showQueued = () => {
    if (contract === undefined) return;
    const parts = [
      ...(pending.throttle > 0 ? [`the next ${pending.throttle} request(s) carry ${contract.throttleHeader}: ${pending.retryAfter}`] : []),
      ...(pending.hostError > 0 ? [`the next request carries ${contract.hostErrorHeader}: ${pending.hostStatus}`] : []),
    ];
    queued.textContent = parts.length === 0 ? 'No host answer asked for.' : `Asked for: ${parts.join('; ')}.`;
  };
  const showSubscriptions = (reply: WorkerReply) => {
    const head = element('tr', {}, [element('th', { scope: 'col', textContent: contract?.subject ?? 'id' }), element('th', { scope: 'col', textContent: 'status' })]);
    const rows = reply.subscriptions.map((subscription) => element('tr', {}, [element('td', { textContent: String(subscription.id) }), element('td', { textContent: subscription.status })]));
    table.replaceChildren(element('thead', {}, [head]), element('tbody', {}, rows));
    save(reply.state);
  };

  /** The request the panel sends for the body as it stands: what curl would send; undefined, and said, for a site that is no URL. */
  const requestFor = (withHostHeaders: boolean): SentRequest | undefined => {
    if (contract === undefined) return undefined;
    const baseUrl = baseUrlOf(siteInput?.value ?? '', siteInput?.dataset.example ?? options.baseUrl ?? 'shop.example');
    const site = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
    if (site === undefined || site.hostname === '') {
      check.textContent = `The site "${siteInput?.value.trim() ?? ''}" is not a host name or an http(s) URL, such as shop.example or http://127.0.0.1:8787.`;
      return undefined;
    }
    const text = body.value;
    const headers: [string, string][] = [
      ['Host', site.host],
      ['Content-Type', 'application/json'],
      ['Content-Length', String(new TextEncoder().encode(text).length)],
    ];
    if (withHostHeaders && pending.throttle > 0) headers.push([contract.throttleHeader, pending.retryAfter]);
    else if (withHostHeaders && pending.hostError > 0) headers.push([contract.hostErrorHeader, String(pending.hostStatus)]);
    return { method: contract.method, baseUrl, target: `${site.pathname.replace(/\/$/, '')}${contract.urlPath}`, headers, body: text };
  };
  const simulated = (request: SentRequest) => ({
    method: request.method,
    // The target as sent: the sandbox serves the site at its root, so a site in a subdirectory (or
    // the endpoint pasted as the site) gets the answers `npm run sandbox` gives to that path.
    target: request.target,
    headers: Object.fromEntries(request.headers.map(([name, value]) => [name.toLowerCase(), value])),
    body: request.body,
    // WordPress names its own URL in `Link`: the site as the reader typed it, subdirectory and scheme included.
    siteUrl: request.baseUrl,
  });

  let checking: ReturnType<typeof setTimeout> | undefined;
  const checkBody = () => {
    clearTimeout(checking);
    checking = setTimeout(async () => {
      // What the next Send carries, a queued host answer included.
      const request = requestFor(true);
      if (request === undefined || contract === undefined) return;
      const reply = await ask({ kind: 'check', request: simulated(request) });
      const answer = reply.answer;
      if (answer === undefined) return;
      const carried = request.headers.filter(([name]) => [contract?.throttleHeader, contract?.hostErrorHeader].includes(name)).map(([name, value]) => `${name}: ${value}`);
      const gist = bodyGist(answer.body, contract.members, request.body);
      check.textContent = `As it stands, the next Send${carried.length === 0 ? '' : ` (with ${carried.join(', ')})`} would get ${statusWords(answer.status)}${gist === '' ? '.' : `: ${gist}`}`;
    }, 250);
  };

  let answers = 0;
  const sendBody = async () => {
    if (contract === undefined) {
      if (!failed) status.textContent = 'The sandbox is still starting in this page; Send works once it is ready.';
      return;
    }
    const request = requestFor(true);
    if (request === undefined || sending) return;
    if (pending.throttle > 0) pending.throttle -= 1;
    else if (pending.hostError > 0) pending.hostError -= 1;
    sending = true;
    send.setAttribute('aria-disabled', 'true');
    status.textContent = 'Sending to the sandbox in this page…';
    const reply = await ask({ kind: 'send', request: simulated(request) });
    sending = false;
    send.removeAttribute('aria-disabled');
    const answer = reply.answer;
    if (answer === undefined) return;
    lastSent = request;
    requestShown.textContent = requestText(request);
    answerShown.textContent = answerText(answer);
    answerShown.scrollTop = 0;
    headersShown.textContent = answerHeadersText(answer);
    exchange.hidden = false;
    copy.disabled = false;
    answers += 1;
    const gist = contract === undefined ? '' : bodyGist(answer.body, contract.members, request.body);
    // Numbered, so that a repeat with the same answer is still a change a screen reader announces.
    status.textContent = `Answer ${answers}: ${statusWords(answer.status)}${gist === '' ? '.' : `, ${gist}`} In ${(reply.elapsedMs ?? 0).toFixed(1)} ms.`;
    // Brought into view without taking the focus off Send or the editor.
    sendRow.scrollIntoView({ block: 'start' });
    showSubscriptions(reply);
    showQueued();
    checkBody();
  };

  send.addEventListener('click', () => void sendBody());
  body.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void sendBody();
    }
  });
  body.addEventListener('input', () => {
    edited = true;
    checkBody();
  });
  throttle.addEventListener('click', () => {
    const most = contract?.maxThrottled ?? 1;
    const asked = Math.trunc(Number(throttleCount.value)) || 1;
    pending.throttle = Math.max(1, Math.min(most, asked));
    // An empty field asks for the default the terminal sandbox's --retry-after has.
    const typed = retryAfter.value.trim();
    pending.retryAfter = typed === '' ? (contract?.retryAfterDefault ?? retryAfter.placeholder) : String(Math.max(0, Math.trunc(Number(typed)) || 0));
    showQueued();
    keepPending();
    status.textContent = `The next ${pending.throttle} request(s) will be throttled.${asked > most ? ` (${most} at most, as the terminal sandbox takes.)` : ''}`;
    checkBody();
  });
  hostError.addEventListener('click', () => {
    pending.hostError = 1;
    pending.hostStatus = Number(hostStatus.value);
    showQueued();
    keepPending();
    status.textContent = `The next request will get the host's ${pending.hostStatus} page.`;
    checkBody();
  });
  reset.addEventListener('click', async () => {
    Object.assign(pending, { throttle: 0, hostError: 0 });
    showSubscriptions(await ask({ kind: 'reset' }));
    showQueued();
    status.textContent = 'The subscriptions are back to the seed.';
    checkBody();
  });
  copy.addEventListener('click', async () => {
    if (lastSent === undefined) return;
    try {
      await navigator.clipboard.writeText(curlCommand(lastSent));
      status.textContent = 'The curl command is copied.';
    } catch {
      status.textContent = 'The browser refused the clipboard.';
    }
  });

  void ask({ kind: 'start', ...(kept === undefined ? {} : { state: kept.simulation }) }).then((reply) => {
    contract = reply.contract;
    if (contract === undefined) return;
    const example = options.presets?.[0]?.body ?? contract.examples[options.action] ?? {};
    const typedKey = options.inputs.find((input) => input.id === `builder-${contract?.credential}`)?.value.trim() ?? '';
    const filled: Record<string, unknown> = { ...example, [contract.credential]: typedKey === '' ? reply.apiKey : typedKey };
    for (const input of options.inputs) {
      const name = input.id.replace(/^builder-/, '');
      if (name in example && name !== contract.credential && input.value.trim() !== '') filled[name] = typeof example[name] === 'number' && /^\d+$/.test(input.value.trim()) ? Number(input.value.trim()) : input.value.trim();
    }
    if (!edited) body.value = JSON.stringify(filled, null, 2);
    keys.textContent = `Ctrl+Enter (⌘+Enter on a Mac) sends. This sandbox's key is ${reply.apiKey}; any other key gets the answer a site gives to a wrong one.`;
    if (pending.retryAfter === '') pending.retryAfter = contract.retryAfterDefault;
    retryAfter.placeholder = contract.retryAfterDefault;
    retryAfter.value = pending.retryAfter;
    throttleCount.max = String(contract.maxThrottled);
    hostStatus.replaceChildren(...contract.hostErrorStatuses.map((value) => element('option', { value: String(value), textContent: `${value} ${reasonPhrase(value) ?? ''}` })));
    status.textContent = reply.problem ?? 'The sandbox is ready in this page.';
    sending = false;
    send.removeAttribute('aria-disabled');
    showSubscriptions(reply);
    showQueued();
    checkBody();
    // The focus stays where the reader put it while the sandbox started.
    if (document.activeElement === null || document.activeElement === document.body) body.focus();
  });
}
