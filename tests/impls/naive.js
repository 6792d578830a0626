#!/usr/bin/env node
// A deliberately wrong YPP implementation for the conformance tests, speaking the
// adapter protocol (docs/protocol.md) on stdin/stdout. Each ship plays its tokens
// as if it were alone: forward moves one tile ahead; left and right move one tile
// ahead, then one tile to that side, ending facing that side. It ignores
// collisions, bumps, rocks, board edges and wind, and reports no events. It skips
// cases that pin a reading, and answers "errored" for boards with whirlpools.
"use strict";
const readline = require("readline");

const AHEAD = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const LEFT = { N: "W", W: "S", S: "E", E: "N" };
const RIGHT = { N: "E", E: "S", S: "W", W: "N" };

function resolve(request) {
  const ships = {};
  for (const [name, ship] of Object.entries(request.before.ships)) {
    ships[name] = { at: ship.at.slice(), heading: ship.heading };
  }
  for (const round of request.actions) {
    for (const [name, token] of Object.entries(round)) {
      const ship = ships[name];
      if (token === "none") continue;
      const [dx, dy] = AHEAD[ship.heading];
      ship.at = [ship.at[0] + dx, ship.at[1] + dy];
      if (token === "left" || token === "right") {
        ship.heading = (token === "left" ? LEFT : RIGHT)[ship.heading];
        const [sx, sy] = AHEAD[ship.heading];
        ship.at = [ship.at[0] + sx, ship.at[1] + sy];
      }
    }
  }
  return { ships, events: [] };
}

function answer(message) {
  if (message.type === "hello") {
    return { type: "hello", protocol: "verifier-adapter/1",
             implementation: { name: "naive toy", version: "0.0.1", language: "javascript" },
             rulesets: ["ypp"] };
  }
  if (Object.keys(message.pinned).length > 0) {
    return { type: "skipped", id: message.id, reason: "the toy knows only the default readings" };
  }
  if ((message.before.board.whirlpools || []).length > 0) {
    return { type: "errored", id: message.id, message: "whirlpools are not implemented" };
  }
  return { type: "outcome", id: message.id, outcome: resolve(message) };
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + "\n");
});
