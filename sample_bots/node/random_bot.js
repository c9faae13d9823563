// A bot that answers every decision with a uniformly random legal action, in JavaScript.
// It loads the arena.v1 contract from the proto files at run time, so it always speaks
// the current version. Run: `npm ci`, then `node random_bot.js --port P` (P = 0: any
// free port). Prints `arena-bot listening on HOST:PORT` once it serves.
//
// The proto files are found in the first of: `--proto DIR`, the ARENA_PROTO_ROOT
// environment variable, a proto/ directory next to this file, the repository's proto/
// (this file's home, sample_bots/node). A copy of this template elsewhere needs one of
// the first three.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");
const { ReflectionService } = require("@grpc/reflection");
const { HealthImplementation, protoPath: healthProtoPath } = require("grpc-health-check");

const BOT_PROTO = path.join("arena", "v1", "bot.proto");
const BOT_SERVICE = "arena.v1.Bot";
const USAGE = "usage: node random_bot.js [--host HOST] [--port PORT] [--proto DIR]";

// The directory holding arena/v1/bot.proto (and the games' .proto files), or exit with a message
// that names every path tried and the fix.
function findProtoRoot(flag) {
  let candidates;
  if (flag !== undefined) {
    candidates = [[path.resolve(flag), "--proto"]];
  } else if (process.env.ARENA_PROTO_ROOT) {
    candidates = [[path.resolve(process.env.ARENA_PROTO_ROOT), "ARENA_PROTO_ROOT"]];
  } else {
    candidates = [
      [path.join(__dirname, "proto"), "next to random_bot.js"],
      [path.resolve(__dirname, "..", "..", "proto"), "two levels up, as in the repository"],
    ];
  }
  for (const [root] of candidates) {
    if (fs.existsSync(path.join(root, BOT_PROTO))) {
      return root;
    }
  }
  const tried = candidates.map(([root, why]) => `${path.join(root, BOT_PROTO)} (${why})`);
  console.error(
    `arena-bot: cannot find the arena.v1 proto files: no ${tried.join(", no ")}. ` +
      "Copy the repository's proto/ directory next to random_bot.js, or point " +
      "ARENA_PROTO_ROOT (or --proto DIR) at it.",
  );
  process.exit(1);
}

function loadContract(protoRoot) {
  try {
    const packageDefinition = protoLoader.loadSync(path.join(protoRoot, BOT_PROTO), {
      includeDirs: [protoRoot],
      keepCase: true, // field names as in the .proto: request_id, legal_index
      longs: String, // uint64 request ids are echoed exactly, whatever their size
      enums: String,
      defaults: true, // empty repeated fields arrive as [] rather than undefined
      oneofs: true, // msg.kind names the oneof member that is set
    });
    // For reflection: the contract and the health service, as clients see them.
    const described = protoLoader.loadSync([path.join(protoRoot, BOT_PROTO), healthProtoPath], {
      includeDirs: [protoRoot],
    });
    return { arena: grpc.loadPackageDefinition(packageDefinition).arena.v1, described };
  } catch (err) {
    // e.g. abluxxen.proto missing beside bot.proto: a copy of only part of proto/.
    console.error(
      `arena-bot: cannot load the arena.v1 contract from ${protoRoot}: ${err.message}. ` +
        "Copy the whole proto/ directory of the repository.",
    );
    process.exit(1);
  }
}

const HELLO = {
  name: "node-random",
  version: "1.0.0",
  // any game: it answers by index into the legal list ("openspiel:*": every OpenSpiel game)
  games: ["abluxxen", "fluxx", "openspiel:*"],
  presets: [], // empty: every preset
  players: [], // empty: every table size
  author: "Bot Arena samples",
};

function hello(call, callback) {
  callback(null, HELLO);
}

// One stream per (match, seat): MatchStart, a DecideRequest per decision, MatchOver.
function play(call) {
  call.on("data", (msg) => {
    if (msg.kind !== "decide") {
      return; // nothing to answer for MatchStart and MatchOver
    }
    const decide = msg.decide;
    // decide.game names the game's field of the oneof; every game's decision carries
    // its legal actions in `legal`, which is all this bot needs.
    const legal = decide.game && decide[decide.game] ? decide[decide.game].legal : [];
    if (legal.length === 0) {
      call.destroy(new Error(`request ${decide.request_id} has no legal actions`));
      return;
    }
    call.write({
      request_id: decide.request_id,
      legal_index: Math.floor(Math.random() * legal.length),
    });
  });
  call.on("end", () => call.end()); // the arena half-closed after MatchOver
  call.on("error", () => {}); // a cancelled call: nothing left to do
}

function parseArgs(argv) {
  const args = { host: "127.0.0.1", port: 0, proto: undefined };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2);
    const value = inline !== undefined ? inline : argv[++i];
    if (flag === "--host" && value) {
      args.host = value;
    } else if (flag === "--port" && /^\d+$/.test(value || "")) {
      args.port = Number(value);
    } else if (flag === "--proto" && value) {
      args.proto = value;
    } else {
      console.error(USAGE);
      process.exit(2);
    }
  }
  return args;
}

function main() {
  const { host, port, proto } = parseArgs(process.argv.slice(2));
  const { arena, described } = loadContract(findProtoRoot(proto));
  const address = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  // MatchOver may carry a whole match record, beyond the default 4 MiB.
  const server = new grpc.Server({ "grpc.max_receive_message_length": 64 * 1024 * 1024 });
  server.addService(arena.Bot.service, { Hello: hello, Play: play });
  // Standard gRPC health checking and reflection, as the Python SDK serves them: load
  // balancers and tools such as grpcurl work without the arena's own contract.
  const health = new HealthImplementation({ "": "SERVING", [BOT_SERVICE]: "SERVING" });
  health.addToServer(server);
  new ReflectionService(described).addToServer(server);
  server.bindAsync(`${address}:${port}`, grpc.ServerCredentials.createInsecure(), (err, bound) => {
    if (err) {
      console.error(`arena-bot: cannot listen on ${address}:${port}: ${err.message}`);
      process.exit(1);
    }
    console.log(`arena-bot listening on ${address}:${bound}`);
  });
  const stop = () => {
    health.setStatus("", "NOT_SERVING");
    health.setStatus(BOT_SERVICE, "NOT_SERVING");
    // Let running calls finish, but not for ever.
    setTimeout(() => server.forceShutdown(), 5000).unref();
    server.tryShutdown(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main();
