// End-to-end check of leaguetui's agents with the official MCP TypeScript
// SDK client (@modelcontextprotocol/sdk).
//
// It lists every agent's tools, then plays one whole even/odd match by
// calling the two players' tools the way a referee would (invitation, move,
// result). Every call is made twice, over MCP tools/call and over plain
// league.v2 JSON-RPC, and the two replies must be the same message.
//
// A player answers match calls only with its match ticket as auth_token,
// which the test gives for referee E2E's match E2E-M1.
//
// Usage:
//   node match.mjs --manager URL --referee URL --player P01=URL --player P02=URL \
//     --ticket P01=TICKET --ticket P02=TICKET
// Exit status 0 when every check passed; each failure is printed.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const EXPECTED_TOOLS = {
  manager: ["register_player", "register_referee", "report_match_result", "league_query",
    "get_standings", "get_schedule", "get_round_status", "start_league"],
  referee: ["start_match", "get_match_state", "notify_round", "notify_league_completed"],
  player: ["handle_game_invitation", "choose_parity", "notify_match_result", "notify_round",
    "update_standings", "notify_round_completed", "notify_league_completed", "notify_game_error"],
};

const MATCH_ID = "E2E-M1";
const SENDER = "referee:E2E";
const CONVERSATION = "conv-e2e-m1";
let failures = 0;

function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
}

function parseArgs(argv) {
  const out = { players: [], tickets: {} };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === "--manager") out.manager = value;
    else if (flag === "--referee") out.referee = value;
    else if (flag === "--player") {
      const [id, url] = value.split(/=(.*)/s);
      out.players.push({ id, url });
    } else if (flag === "--ticket") {
      const [id, ticket] = value.split(/=(.*)/s);
      out.tickets[id] = ticket;
    } else throw new Error(`unknown argument ${flag}`);
  }
  if (!out.manager || !out.referee || out.players.length !== 2) {
    throw new Error("usage: node match.mjs --manager URL --referee URL --player P01=URL --player P02=URL");
  }
  return out;
}

async function connect(url) {
  const client = new Client({ name: "leaguetui-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

// listTools checks that an agent lists the tools its role serves, each with
// an object input schema.
async function listTools(role, url) {
  const client = await connect(url);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  console.log(`${role} ${url}: ${names.join(", ")}`);
  for (const want of EXPECTED_TOOLS[role]) check(names.includes(want), `${role} lists ${want}`);
  check(tools.every((t) => t.inputSchema?.type === "object"), `${role}'s tools all have an object inputSchema`);
  const arrays = tools.flatMap((t) => [...typeArrays(t.inputSchema, `${t.name} inputSchema`),
    ...typeArrays(t.outputSchema, `${t.name} outputSchema`)]);
  check(arrays.length === 0, `${role}'s tool schemas give no type as an array (strict clients want anyOf) ${arrays.join(", ")}`);
  const complaints = strictComplaints(tools);
  check(complaints.length === 0, `${role}'s tool schemas compile in Ajv's strict mode without a warning ${complaints.join("; ")}`);
  return client;
}

// strictComplaints compiles every tool's input and output schema with Ajv
// in strict mode, the validator strict MCP clients use, and lists what it
// warns about or refuses: a type given as an array, an unknown keyword or
// format, a tuple left open, and the like.
function strictComplaints(tools) {
  const complaints = [];
  const note = (...parts) => complaints.push(parts.join(" "));
  const ajv = new Ajv2020({ strict: true, allErrors: true, logger: { log() {}, warn: note, error: note } });
  addFormats(ajv);
  for (const tool of tools) {
    for (const [which, schema] of [["inputSchema", tool.inputSchema], ["outputSchema", tool.outputSchema]]) {
      if (!schema) continue;
      const before = complaints.length;
      try {
        ajv.compile(schema);
      } catch (err) {
        note(err.message);
      }
      for (let i = before; i < complaints.length; i++) complaints[i] = `${tool.name} ${which}: ${complaints[i]}`;
    }
  }
  return complaints;
}

// typeArrays lists where a schema says "type": [...], at any depth.
function typeArrays(schema, path) {
  if (schema === null || typeof schema !== "object") return [];
  const here = Array.isArray(schema.type) ? [`${path}/type`] : [];
  return here.concat(Object.entries(schema).flatMap(([k, v]) => typeArrays(v, `${path}/${k}`)));
}

// envelope starts a message as referee E2E sends it to a player, with the
// player's match ticket when given one.
function envelope(messageType, ticket) {
  return {
    protocol: "league.v2", message_type: messageType, sender: SENDER, ...(ticket ? { auth_token: ticket } : {}),
    timestamp: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    conversation_id: CONVERSATION, league_id: "league_2025_even_odd", round_id: 1, match_id: MATCH_ID,
  };
}

// overMCP calls a tool and returns its reply message; content[0].text must
// hold the same JSON as structuredContent.
async function overMCP(client, tool, args) {
  const result = await client.callTool({ name: tool, arguments: args });
  const text = JSON.parse(result.content[0].text);
  check(same(text, result.structuredContent), `${tool}: text content equals structuredContent`);
  check(!result.isError, `${tool}: no isError`);
  return result.structuredContent;
}

let nextID = 1;

// overJSONRPC sends the same message as a plain league.v2 request, with no
// MCP headers, as a league peer does.
async function overJSONRPC(url, method, params) {
  const resp = await fetch(url, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextID++, method, params }),
  });
  const body = await resp.json();
  if (body.error) throw new Error(`${method} over JSON-RPC: ${JSON.stringify(body.error)}`);
  return body.result;
}

// same compares two messages, leaving out the fields that hold the time of sending.
function same(a, b) {
  const strip = (m) => {
    const copy = { ...m };
    delete copy.timestamp;
    delete copy.arrival_timestamp;
    return JSON.stringify(copy, Object.keys(copy).sort());
  };
  return strip(a) === strip(b);
}

// both sends one message over MCP and over JSON-RPC and checks the replies match.
async function both(player, tool, args) {
  const viaMCP = await overMCP(player.client, tool, args);
  const viaRPC = await overJSONRPC(player.url, tool, args);
  check(same(viaMCP, viaRPC), `${tool} to ${player.id}: the same ${viaMCP.message_type} over MCP and JSON-RPC`);
  return viaMCP;
}

async function playMatch(players) {
  const [a, b] = players;
  const roles = [["PLAYER_A", a, b], ["PLAYER_B", b, a]];
  for (const [role, self, other] of roles) {
    const ack = await both(self, "handle_game_invitation", {
      ...envelope("GAME_INVITATION", self.ticket), game_type: "even_odd", role_in_match: role, opponent_id: other.id, player_id: self.id,
    });
    check(ack.message_type === "GAME_JOIN_ACK" && ack.accept === true, `${self.id} joins the match`);
  }
  const choices = {};
  for (const [, self, other] of roles) {
    const resp = await both(self, "choose_parity", {
      ...envelope("CHOOSE_PARITY_CALL", self.ticket), player_id: self.id, game_type: "even_odd",
      context: { opponent_id: other.id, round_id: 1, your_standings: { wins: 0, losses: 0, draws: 0 } },
      deadline: new Date(Date.now() + 30000).toISOString().replace(/\.\d+Z$/, "Z"),
      move_request: { move_type: "choose_parity", valid_options: ["even", "odd"] },
    });
    check(["even", "odd"].includes(resp.parity_choice), `${self.id} chooses ${resp.parity_choice}`);
    choices[self.id] = resp.parity_choice;
  }
  const drawn = 1 + Math.floor(Math.random() * 10);
  const parity = drawn % 2 === 0 ? "even" : "odd";
  const right = players.filter((p) => choices[p.id] === parity);
  const winner = right.length === 1 ? right[0].id : null;
  const gameResult = {
    status: winner ? "WIN" : "DRAW", winner_player_id: winner, choices, drawn_number: drawn, number_parity: parity,
    reason: winner ? `${winner} chose ${parity}, the parity of ${drawn}` : `both chose the same parity as ${drawn} or both did not`,
  };
  for (const p of players) {
    const ack = await both(p, "notify_match_result", {
      ...envelope("GAME_OVER", p.ticket), game_type: "even_odd", game_result: gameResult, reason: gameResult.reason,
    });
    check(ack.status === "ok", `${p.id} acknowledges GAME_OVER`);
  }
  console.log(`match ${MATCH_ID}: ${a.id} ${choices[a.id]}, ${b.id} ${choices[b.id]}, drawn ${drawn}: ` +
    (winner ? `${winner} wins` : "draw"));
}

// errorCases: a broken call is a tool error, an unknown tool a protocol error,
// and a move call without the match ticket is refused.
async function errorCases(player) {
  const bad = await player.client.callTool({ name: "choose_parity", arguments: { ...envelope("GAME_OVER", player.ticket) } });
  check(bad.isError === true, "choose_parity with the wrong message_type is a tool error (isError)");
  const stranger = await player.client.callTool({ name: "choose_parity", arguments: {
    ...envelope("CHOOSE_PARITY_CALL"), player_id: player.id, game_type: "even_odd",
    context: { opponent_id: "P99", round_id: 1 } } });
  check(stranger.isError === true && stranger.structuredContent?.error_code === "E011",
    `choose_parity without the match ticket is refused with E011 (got ${JSON.stringify(stranger.structuredContent)})`);
  let code;
  try {
    await player.client.callTool({ name: "no_such_tool", arguments: {} });
  } catch (err) {
    code = err.code;
  }
  check(code === -32602, `an unknown tool is a JSON-RPC error -32602 (got ${code})`);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const clients = [await listTools("manager", args.manager), await listTools("referee", args.referee)];
  const players = [];
  for (const p of args.players) {
    const client = await listTools("player", p.url);
    clients.push(client);
    players.push({ ...p, client, ticket: args.tickets[p.id] });
  }
  await playMatch(players);
  await errorCases(players[0]);
  for (const c of clients) await c.close();
  if (failures > 0) {
    console.log(`${failures} check(s) failed`);
    process.exit(1);
  }
  console.log("all checks passed");
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
