"""Generated protobuf code of the arena.v1 contract (scripts/gen_protos)."""
