#!/usr/bin/env node
// Connect four as a game program (docs/games.md, "Writing a game").
//
// leaguetui writes one JSON object a line on standard input; the game
// answers each with one JSON object a line on standard output. Seven
// columns, six rows, sequential turns: A drops X, B drops O, into a
// column "1" to "7". Four in a row (across, down or diagonal) wins, a
// full board draws. Node's standard library only; no randomness.
"use strict";
const readline = require("readline");

const COLS = 7, ROWS = 6;
const MARK = { A: "X", B: "O" };
const OTHER = { A: "B", B: "A" };

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

class Game {
  constructor(first) {
    this.cells = Array(ROWS * COLS).fill("."); // row 0 is the top row
    this.toMove = first;
    this.pending = null; // the column of this turn, once accepted
    this.moves = [];
  }

  at(r, c) { return this.cells[r * COLS + c]; }
  legal() {
    const cols = [];
    for (let c = 0; c < COLS; c++) if (this.at(0, c) === ".") cols.push(String(c + 1));
    return cols;
  }
  rows() {
    const rows = [];
    for (let r = 0; r < ROWS; r++) rows.push(this.cells.slice(r * COLS, (r + 1) * COLS).join(""));
    return rows;
  }
  board() { return this.rows().join("/"); }
  drawing() {
    return this.rows().map((row) => row.split("").join(" ")).concat(["1 2 3 4 5 6 7"]).join("\n");
  }

  turn() {
    const seats = ["A", "B"].map((seat) => {
      const entry = {
        seat, asked: seat === this.toMove,
        observation: { board: this.board(), you: MARK[seat], to_move: MARK[this.toMove] },
        text: this.drawing(),
      };
      if (entry.asked) {
        entry.move_type = "drop";
        entry.options = this.legal();
      }
      return entry;
    });
    return { type: "turn", seats, progress: `${MARK[this.toMove]} to move, ${this.moves.length} dropped` };
  }

  verdict(seat, move) {
    const col = String(move).trim();
    if (seat !== this.toMove) {
      return { type: "verdict", seat, verdict: "not_a_move", reason: "it is not your turn" };
    }
    const legal = this.legal();
    if (!legal.includes(col)) {
      return { type: "verdict", seat, verdict: "not_a_move",
        reason: `${JSON.stringify(move)} is not a column with room: want one of ${legal.join(" ")}` };
    }
    this.pending = Number(col) - 1;
    return { type: "verdict", seat, verdict: "accepted", move: col };
  }

  advance() {
    const seat = this.toMove, mark = MARK[seat], c = this.pending;
    let r = ROWS - 1;
    while (this.at(r, c) !== ".") r--;
    this.cells[r * COLS + c] = mark;
    this.moves.push(String(c + 1));
    this.pending = null;
    const line = this.fourThrough(r, c, mark);
    if (line) return this.end(seat, `${seat} (${mark}) made four ${line}`);
    if (!this.cells.includes(".")) return this.end("", "the board is full with no four in a row");
    this.toMove = OTHER[seat];
    return this.turn();
  }

  // fourThrough names the line of four or more marks through (r, c), or "".
  fourThrough(r, c, mark) {
    const dirs = [[0, 1, "across"], [1, 0, "down"], [1, 1, "diagonally"], [1, -1, "diagonally"]];
    for (const [dr, dc, name] of dirs) {
      let n = 1;
      for (const s of [1, -1]) {
        let rr = r + s * dr, cc = c + s * dc;
        while (rr >= 0 && rr < ROWS && cc >= 0 && cc < COLS && this.at(rr, cc) === mark) {
          n++; rr += s * dr; cc += s * dc;
        }
      }
      if (n >= 4) return name;
    }
    return "";
  }

  end(winner, why) {
    let statuses = { A: "DRAW", B: "DRAW" };
    if (winner) statuses = { [winner]: "WON", [OTHER[winner]]: "LOST" };
    const n = this.moves.length;
    return {
      type: "end", winner,
      seats: ["A", "B"].map((seat) => ({ seat, status: statuses[seat] })),
      details: { board: this.board(), moves: this.moves.join(" ") },
      reason: `${why} after ${n} moves`,
      step: `${winner ? MARK[winner] + " wins" : "draw"} in ${n}`,
    };
  }
}

let game = null, done = false;
const rl = readline.createInterface({ input: process.stdin, terminal: false });
function fail(message) {
  send({ type: "error", message });
  done = true;
  rl.close();
}
rl.on("line", (line) => {
  if (done) return;
  let msg;
  try { msg = JSON.parse(line); } catch (e) { return fail(`not JSON: ${e.message}`); }
  const kind = msg && msg.type;
  if (kind === "start") {
    // The match's seed: read as the protocol gives it, though no move depends on it.
    if (!Number.isSafeInteger(msg.seed) || msg.seed < 0) return fail(`seed ${JSON.stringify(msg.seed)}: want an integer below 2^53`);
    const first = (msg.options || {}).first ?? "A";
    if (!(first in MARK)) return fail(`option first ${JSON.stringify(first)}: want A or B`);
    game = new Game(first);
    send(game.turn());
  } else if (kind === "move" && game) {
    send(game.verdict(msg.seat, msg.move));
  } else if (kind === "advance" && game) {
    send(game.advance());
  } else {
    fail(`unexpected ${JSON.stringify(kind)}`);
  }
});
