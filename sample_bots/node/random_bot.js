// A bot that answers every decision with a uniformly random legal action, in JavaScript.
// It loads the arena.v1 contract from the repository's proto files at run time, so it
// always speaks the current version. Run: `npm ci`, then `node random_bot.js --port P`
// (P = 0: any free port). Prints `arena-bot listening on HOST:PORT` once it serves.
"use strict";

const path = require("node:path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");
const { ReflectionService } = require("@grpc/reflection");
const { HealthImplementation, protoPath: healthProtoPath } = require("grpc-health-check");

const PROTO_ROOT = path.resolve(__dirname, "..", "..", "proto");

const packageDefinition = protoLoader.loadSync(path.join(PROTO_ROOT, "arena/v1/bot.proto"), {
  includeDirs: [PROTO_ROOT],
  keepCase: true, // field names as in the .proto: request_id, legal_index
  longs: String, // uint64 request ids are echoed exactly, whatever their size
  enums: String,
  defaults: true, // empty repeated fields arrive as [] rather than undefined
  oneofs: true, // msg.kind names the oneof member that is set
});
const arena = grpc.loadPackageDefinition(packageDefinition).arena.v1;
const BOT_SERVICE = "arena.v1.Bot";

const HELLO = {
  name: "node-random",
  version: "1.0.0",
  games: ["abluxxen"],
  presets: [], // empty: every preset
  players: [], // empty: every table size
  author: "Abluxxen Arena samples",
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
    const legal = decide.abluxxen ? decide.abluxxen.legal : [];
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
  const args = { host: "127.0.0.1", port: 0 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2);
    const value = inline !== undefined ? inline : argv[++i];
    if (flag === "--host" && value) {
      args.host = value;
    } else if (flag === "--port" && /^\d+$/.test(value || "")) {
      args.port = Number(value);
    } else {
      console.error("usage: node random_bot.js [--host HOST] [--port PORT]");
      process.exit(2);
    }
  }
  return args;
}

function main() {
  const { host, port } = parseArgs(process.argv.slice(2));
  const address = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  // MatchOver may carry a whole match record, beyond the default 4 MiB.
  const server = new grpc.Server({ "grpc.max_receive_message_length": 64 * 1024 * 1024 });
  server.addService(arena.Bot.service, { Hello: hello, Play: play });
  // Standard gRPC health checking and reflection, as the Python SDK serves them: load
  // balancers and tools such as grpcurl work without the arena's own contract.
  const health = new HealthImplementation({ "": "SERVING", [BOT_SERVICE]: "SERVING" });
  health.addToServer(server);
  const described = protoLoader.loadSync(
    [path.join(PROTO_ROOT, "arena/v1/bot.proto"), healthProtoPath],
    { includeDirs: [PROTO_ROOT] },
  );
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
