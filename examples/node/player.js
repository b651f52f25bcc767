#!/usr/bin/env node
// A league.v2 player in one file, Node's standard library only.
//
// Copy it, replace the two strategy functions, and check it:
//
//   leaguetui check --strict -- node player.js --port {port} --manager {manager} --name {name} --data {data}
//
// It registers with the manager, saves its credentials and presents them when
// it registers again after a restart, answers the referee's invitation, move
// and result calls (even_odd and link_race), checks match tickets, serves
// GET /health and the MCP tools/list, and logs one line per match. With --pull
// it listens on no port (behind NAT, a firewall): it takes the league's calls
// over connections it opens to the manager, each request carrying the answer
// to the last call and bringing the next.
// The wire is described in leaguetui's docs/protocol.md and docs/joining.md.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const MAX_BODY = 1 << 20; // larger requests are refused

// --- strategies: replace these two -----------------------------------------

// even_odd: answer "even" or "odd".
function chooseParity(opponentId) {
  return Math.random() < 0.5 ? 'even' : 'odd';
}

// link_race: answer one of the current page's links (the target if it is there).
function chooseLink(currentPage, links, targetPage) {
  return links.includes(targetPage) ? targetPage : links[0];
}

// --- the wire ----------------------------------------------------------------

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '8101' },
    manager: { type: 'string', default: 'http://127.0.0.1:8000/mcp' },
    name: { type: 'string', default: 'node-starter' },
    data: { type: 'string', default: path.join(os.homedir(), '.leaguetui-starter') }, // folder for the saved credentials
    pull: { type: 'boolean', default: false }, // listen on no port: take the league's calls over connections this player opens
  },
});
// With --pull the manager gives this player a pull seat (see pull below).
const endpoint = args.pull ? 'pull' : `http://127.0.0.1:${args.port}/mcp`;
const credsPath = path.join(args.data, `credentials-${args.name}.json`);
let creds = {}; // player_id, auth_token, league_id, match_ticket_key

// UTC, whole seconds: strict peers refuse fractions.
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

function envelope(messageType, request = {}) {
  const env = {
    protocol: 'league.v2', message_type: messageType, sender: `player:${creds.player_id || args.name}`,
    timestamp: now(), conversation_id: request.conversation_id || `conv-${args.name}`,
  };
  for (const key of ['league_id', 'round_id', 'match_id']) { // echo the match's ids
    if (key in request) env[key] = request[key];
  }
  return env;
}

async function register() {
  if (fs.existsSync(credsPath)) creds = JSON.parse(fs.readFileSync(credsPath, 'utf8'));
  const msg = envelope('LEAGUE_REGISTER_REQUEST', { conversation_id: `conv-register-${args.name}` });
  if (creds.auth_token) msg.auth_token = creds.auth_token; // "it is me again"
  msg.player_meta = {
    display_name: args.name, version: '1.0.0', game_types: ['even_odd', 'link_race'], contact_endpoint: endpoint,
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'register_player', params: msg });
  let result;
  for (let attempt = 0; ; attempt++) { // the manager may still be starting
    try {
      const resp = await fetch(args.manager, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body, signal: AbortSignal.timeout(10000),
      });
      result = JSON.parse(await readCapped(resp)).result || {};
      break;
    } catch (e) {
      if (attempt >= 9) throw new Error(`registration: the manager at ${args.manager} never answered`);
      console.error(`registration: ${e.message}; trying again`);
      await new Promise((r) => setTimeout(r, Math.min(2 ** attempt, 10) * 1000));
    }
  }
  if (result.status !== 'ACCEPTED') throw new Error(`registration rejected: ${result.reason}`);
  creds = {
    player_id: result.player_id, auth_token: result.auth_token,
    league_id: result.league_id, match_ticket_key: result.match_ticket_key,
  };
  fs.mkdirSync(args.data, { recursive: true });
  fs.writeFileSync(credsPath, JSON.stringify(creds));
  console.error(`registered as ${creds.player_id} in ${creds.league_id}`);
}

// readCapped reads a reply's body, refusing one over MAX_BODY bytes.
async function readCapped(resp) {
  const chunks = [];
  let size = 0;
  for await (const chunk of resp.body) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error(`the manager's reply is over ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// A leaguetui manager gives a match_ticket_key: then a match call must carry
// mt-<hex HMAC-SHA256(key, "match_ticket\0" league\0 match\0 referee\0)> as auth_token.
function ticketOK(msg) {
  if (!creds.match_ticket_key) return true; // a manager without tickets: nothing to check
  const referee = (msg.sender || '').split('referee:')[1] || '';
  const league = msg.league_id || creds.league_id || '';
  const data = ['match_ticket', league, msg.match_id || '', referee].map((p) => p + '\0').join('');
  const want = Buffer.from('mt-' + crypto.createHmac('sha256', creds.match_ticket_key).update(data).digest('hex'));
  const got = Buffer.from(String(msg.auth_token || ''));
  return got.length === want.length && crypto.timingSafeEqual(got, want);
}

class RPCError extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

// handle answers one league message: the result, or a thrown RPCError.
function handle(method, msg) {
  const kind = msg.message_type || method;
  const me = creds.player_id || '';
  if (['GAME_INVITATION', 'CHOOSE_PARITY_CALL', 'GAME_MOVE_CALL', 'GAME_OVER'].includes(kind) && !ticketOK(msg)) {
    return { ...envelope('LEAGUE_ERROR', msg), error_code: 'E012', error_name: 'AUTH_TOKEN_INVALID',
      error_description: "not this match's ticket", retryable: false };
  }
  switch (kind) {
    case 'GAME_INVITATION': case 'handle_game_invitation':
      return { ...envelope('GAME_JOIN_ACK', msg), player_id: me, arrival_timestamp: now(), accept: true };
    case 'CHOOSE_PARITY_CALL': case 'choose_parity':
      return { ...envelope('CHOOSE_PARITY_RESPONSE', msg), player_id: me,
        parity_choice: chooseParity((msg.context || {}).opponent_id) };
    case 'GAME_MOVE_CALL': case 'game_move_call': {
      const state = (msg.move_request || {}).context || {};
      const link = chooseLink(state.current_page, state.links || [''], state.target_page);
      return { ...envelope('GAME_MOVE_RESPONSE', msg), player_id: me, move_data: { move_type: 'navigate', choice: link } };
    }
    case 'GAME_OVER': case 'notify_match_result': {
      const r = msg.game_result || {};
      console.error(`match ${msg.match_id} ${msg.game_type}: ${r.status}, winner ${r.winner_player_id}`);
    } // and acknowledge it
    case 'ROUND_ANNOUNCEMENT': case 'LEAGUE_STANDINGS_UPDATE': case 'ROUND_COMPLETED':
    case 'LEAGUE_COMPLETED': case 'GAME_ERROR': case 'ping':
      return { ...envelope(`${kind.toUpperCase()}_ACK`, msg), status: 'ok' };
  }
  throw new RPCError(-32601, `method not found: ${method}`);
}

const TOOLS = [
  ['handle_game_invitation', 'GAME_INVITATION: answers GAME_JOIN_ACK'],
  ['choose_parity', 'CHOOSE_PARITY_CALL: answers CHOOSE_PARITY_RESPONSE'],
  ['game_move_call', 'GAME_MOVE_CALL: answers GAME_MOVE_RESPONSE'],
  ['notify_match_result', 'GAME_OVER: answers an acknowledgement'],
].map(([name, description]) => ({ name, description, inputSchema: { type: 'object' } }));

function reply(res, status, obj) {
  const body = JSON.stringify(obj);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

// respond is one JSON-RPC request's answer: its HTTP status and the response
// object, or null for none (a notification).
function respond(text) {
  let req;
  try {
    req = JSON.parse(text);
  } catch {
    return { status: 200, obj: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } } };
  }
  if (!req || typeof req.method !== 'string') {
    return { status: 200, obj: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } } };
  }
  const params = req.params || {};
  let response;
  try {
    let result;
    if (req.method === 'tools/list') {
      result = { tools: TOOLS };
    } else if (req.method === 'tools/call') { // an MCP client: the league message is the arguments
      const out = handle(params.name || '', params.arguments || {});
      result = { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
    } else {
      result = handle(req.method, params);
    }
    response = { jsonrpc: '2.0', id: req.id, result };
  } catch (e) {
    if (!(e instanceof RPCError)) throw e;
    response = { jsonrpc: '2.0', id: req.id, error: { code: e.code, message: e.message } };
  }
  if (!('id' in req)) return { status: 202, obj: null }; // a notification: acted on, never answered
  return { status: 200, obj: response };
}

function answer(res, text) {
  const { status, obj } = respond(text);
  if (obj === null) {
    res.writeHead(status);
    return res.end();
  }
  reply(res, status, obj);
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health') {
    return reply(res, 200, { status: 'ok', player_id: creds.player_id || null });
  }
  if (req.method !== 'POST') return reply(res, 404, { error: 'not found' });
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size <= MAX_BODY) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > MAX_BODY) {
      return reply(res, 413, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'request body too large' } });
    }
    answer(res, Buffer.concat(chunks).toString('utf8'));
  });
});

// --- --pull: no port; calls come over connections this player opens ---------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const PULL_WORKERS = 4; // calls come concurrently (a notification during a match): one worker each

// pull takes the league's calls over connections this player opens to the
// manager's relay, with PULL_WORKERS workers (see pullWorker).
async function pull() {
  await Promise.all(Array.from({ length: PULL_WORKERS }, pullWorker));
}

// pullWorker is one worker's loop: POST .../next carrying the answer to this
// worker's last call (none the first time), which the relay writes as that
// caller's HTTP response and then waits for the next call (or answers 204 when
// none came for a while); answer that call, and repeat. One request a call.
async function pullWorker() {
  const url = `${args.manager.replace(/\/mcp$/, '')}/pull/${creds.player_id}/next`;
  let delivery = null; // the last call's delivery id
  let answer = ''; // and its answer
  for (;;) {
    const token = creds.auth_token;
    const headers = { Authorization: `Bearer ${token}` };
    if (delivery) Object.assign(headers, { 'League-Delivery': delivery, 'Content-Type': 'application/json' });
    try {
      const resp = await fetch(url, { method: 'POST', headers, body: answer, signal: AbortSignal.timeout(60000) });
      if (resp.status === 200 || resp.status === 204) { // 204: no call this time
        delivery = resp.headers.get('league-delivery');
        answer = delivery ? replyTo(await readCapped(resp).catch(() => null)) : '';
        continue;
      }
      await resp.arrayBuffer();
      if (resp.status === 401) { // the token is no longer this seat's: register again, keep the answer
        await renew(token);
      } else if (delivery && [404, 410, 413].includes(resp.status)) { // the answer went nowhere: poll on without it
        console.error(`answer ${delivery}: HTTP ${resp.status}`);
        delivery = null;
        answer = '';
      } else {
        await sleep(1000);
      }
    } catch (e) { // the manager is away: try again shortly, answer and all
      console.error(`poll: ${e.message}`);
      await sleep(1000);
    }
  }
}

// replyTo is the answer to one call (null: one over MAX_BODY), as this player
// would write it as the HTTP response on its own /mcp (empty for a notification).
function replyTo(text) {
  const { obj } = text === null
    ? { obj: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'request body too large' } } }
    : respond(text);
  return obj === null ? '' : JSON.stringify(obj);
}

// renew registers again, once for all the workers refused token: the first
// registers, the others wait for it and poll on with the new token.
let renewing = null;
async function renew(token) {
  if (creds.auth_token === token && !renewing) renewing = register().finally(() => { renewing = null; });
  await renewing;
}

function fail(e) {
  console.error(e.message);
  process.exit(1);
}

if (args.pull) {
  register().then(pull).catch(fail);
} else {
  server.listen(Number(args.port), '127.0.0.1', () => register().catch(fail)); // listen before registering
}
process.on('SIGTERM', () => process.exit(0));
