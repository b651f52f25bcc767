// A league played through MCP-client seats by the official MCP TypeScript
// SDK client (@modelcontextprotocol/sdk), as any MCP client would: with
// nothing but the seat host's URL and a join code per seat.
//
// It reads the league's seats.json (mcp_url, and each seat's name and
// join_code), opens one MCP session per seat, checks the tool list, takes
// each seat and loops wait_for_turn -> submit_move until the seat says the
// league is completed. The move is the link race's target when it is one
// of the links, else a seeded choice among the legal moves. Every answer's
// text content must be the same JSON as its structured content.
//
// Usage:
//   node seats.mjs --seats DATA/seats.json [--seed N]
// Exit status 0 when every seat played to the league's end; each failure
// is printed.

import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const TOOLS = ["get_standings", "submit_move", "take_seat", "wait_for_turn"];
const MAX_CALLS = 5000; // a bound on each seat's loop: a league of a few players needs far fewer

function parseArgs(argv) {
  const out = { seed: 1 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === "--seats") out.seats = value;
    else if (flag === "--seed") out.seed = Number(value);
    else throw new Error(`unknown argument ${flag}`);
  }
  if (!out.seats) throw new Error("usage: node seats.mjs --seats DATA/seats.json [--seed N]");
  return out;
}

// A small seeded generator (mulberry32), so a run chooses the same moves.
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// call calls a tool and returns its structured content, failing on an
// error result or on a text content that is not the same JSON.
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content?.[0]?.text ?? "";
  if (result.isError) throw new Error(`${name}: ${text}`);
  if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(result.structuredContent)) {
    throw new Error(`${name}: text ${text} is not the structured content ${JSON.stringify(result.structuredContent)}`);
  }
  return result.structuredContent;
}

function chooseMove(turn, random) {
  const target = turn.observation?.target_page;
  if (target !== undefined && turn.legal.includes(target)) return target;
  return turn.legal[Math.floor(random() * turn.legal.length)];
}

// playSeat takes one seat and plays until the league is completed.
async function playSeat(url, seat, random) {
  const client = new Client({ name: "leaguetui-seats-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const tools = (await client.listTools()).tools;
    const names = tools.map((t) => t.name).sort();
    if (JSON.stringify(names) !== JSON.stringify(TOOLS)) throw new Error(`tools ${names}, want ${TOOLS}`);
    for (const t of tools) {
      if (!t.description || t.inputSchema?.type !== "object") throw new Error(`tool ${t.name} has no description or input schema`);
    }
    const taken = await call(client, "take_seat", { join_code: seat.join_code });
    if (taken.seat !== seat.name || !taken.player_id) throw new Error(`take_seat: ${JSON.stringify(taken)}`);
    // The standings now: once the league is completed, leaguetui --no-ui
    // stops its manager at once.
    const table = await call(client, "get_standings", {});
    if (!table.standings.some((row) => row.player_id === taken.player_id)) {
      throw new Error(`get_standings has no row of ${taken.player_id}: ${JSON.stringify(table)}`);
    }
    let moves = 0;
    for (let calls = 0; calls < MAX_CALLS; calls++) {
      const turn = await call(client, "wait_for_turn", { timeout_seconds: 10 });
      if (turn.state === "league_completed") {
        console.log(`${seat.name} (${taken.player_id}): ${moves} moves, league completed`);
        return moves;
      }
      if (turn.state === "waiting") continue;
      if (turn.state !== "your_turn" || !turn.match_id || !turn.deadline || !turn.legal?.length) {
        throw new Error(`wait_for_turn: ${JSON.stringify(turn)}`);
      }
      const answer = await call(client, "submit_move", { match_id: turn.match_id, move: chooseMove(turn, random) });
      if (!answer.accepted) throw new Error(`submit_move: ${JSON.stringify(answer)}`);
      moves++;
    }
    throw new Error(`${seat.name}: the league did not complete within ${MAX_CALLS} calls`);
  } finally {
    await client.close();
  }
}

const args = parseArgs(process.argv.slice(2));
const file = JSON.parse(readFileSync(args.seats, "utf8"));
const random = seeded(args.seed);
const results = await Promise.allSettled(file.seats.map((seat) => playSeat(file.mcp_url, seat, random)));
let failures = 0;
for (const [i, r] of results.entries()) {
  if (r.status === "rejected") {
    failures++;
    console.log(`FAIL ${file.seats[i].name}: ${r.reason?.stack ?? r.reason}`);
  } else if (r.value === 0) {
    failures++;
    console.log(`FAIL ${file.seats[i].name}: no move played`);
  }
}
process.exit(failures === 0 ? 0 : 1);
