"""The protocol reference page, written from the ``.proto`` files' own comments: protoc
(grpcio-tools) parses them into descriptors with their source info, and each service,
method, message, field, enum and value is listed with the comment above it."""

from __future__ import annotations

import re
import tempfile
import textwrap
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from google.protobuf import descriptor_pb2
from grpc_tools import protoc

# Paths into a FileDescriptorProto (descriptor.proto's field numbers), as SourceCodeInfo
# gives a comment's place.
MESSAGE, ENUM, SERVICE, SYNTAX = 4, 5, 6, 12
FIELD, NESTED_MESSAGE, NESTED_ENUM = 2, 3, 4
ENUM_VALUE, METHOD = 2, 2

LABELS = {descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED: "repeated "}
SCALARS = {
    value: name.removeprefix("TYPE_").lower()
    for name, value in descriptor_pb2.FieldDescriptorProto.Type.items()
}


class ProtoError(RuntimeError):
    """protoc refused the files (its message says why)."""


def anchor(proto_name: str) -> str:
    """The page's anchor of one file's section: ``arena/v1/bot.proto`` -> ``bot-proto``."""
    return Path(proto_name).name.replace(".", "-")


def _descriptors(root: Path, files: Sequence[Path]) -> descriptor_pb2.FileDescriptorSet:
    include = resources.files("grpc_tools") / "_proto"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "set.pb"
        args = ["protoc", f"-I{root}", f"-I{include}", "--include_source_info"]
        args += [f"--descriptor_set_out={out}", *(str(f.relative_to(root)) for f in files)]
        if protoc.main(args) != 0:
            raise ProtoError(f"protoc could not parse {', '.join(map(str, files))}")
        return descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())


def _comments(proto: descriptor_pb2.FileDescriptorProto) -> dict[tuple[int, ...], str]:
    found = {}
    for location in proto.source_code_info.location:
        text = location.leading_comments.rstrip() or location.trailing_comments.rstrip()
        if text.strip():
            found[tuple(location.path)] = textwrap.dedent(text)
    return found


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _type(field: descriptor_pb2.FieldDescriptorProto) -> str:
    name = field.type_name.lstrip(".") or SCALARS[field.type]
    return f"{LABELS.get(field.label, '')}{'optional ' if field.proto3_optional else ''}{name}"


def _message(
    lines: list[str],
    message: descriptor_pb2.DescriptorProto,
    path: tuple[int, ...],
    comments: dict[tuple[int, ...], str],
    prefix: str,
) -> None:
    name = f"{prefix}{message.name}"
    lines += [f"### message `{name}`", "", comments.get(path, ""), ""]
    if message.field:
        lines += ["| field | type | number | what |", "| --- | --- | --- | --- |"]
        for i, field in enumerate(message.field):
            what = _cell(comments.get((*path, FIELD, i), ""))
            lines.append(f"| `{field.name}` | `{_type(field)}` | {field.number} | {what} |")
        lines.append("")
    for i, enum in enumerate(message.enum_type):
        _enum(lines, enum, (*path, NESTED_ENUM, i), comments, f"{name}.")
    for i, nested in enumerate(message.nested_type):
        if not nested.options.map_entry:
            _message(lines, nested, (*path, NESTED_MESSAGE, i), comments, f"{name}.")


def _enum(
    lines: list[str],
    enum: descriptor_pb2.EnumDescriptorProto,
    path: tuple[int, ...],
    comments: dict[tuple[int, ...], str],
    prefix: str,
) -> None:
    lines += [f"### enum `{prefix}{enum.name}`", "", comments.get(path, ""), ""]
    lines += ["| value | number | what |", "| --- | --- | --- |"]
    for i, value in enumerate(enum.value):
        what = _cell(comments.get((*path, ENUM_VALUE, i), ""))
        lines.append(f"| `{value.name}` | {value.number} | {what} |")
    lines.append("")


def _file(proto: descriptor_pb2.FileDescriptorProto) -> list[str]:
    comments = _comments(proto)
    lines = [f"## {proto.name} {{#{anchor(proto.name)}}}", ""]
    for location in proto.source_code_info.location:
        if tuple(location.path) == (SYNTAX,):  # the file's opening comment is above `syntax`
            header = [*location.leading_detached_comments, location.leading_comments]
            lines += [textwrap.dedent(c).strip() + "\n" for c in header if c.strip()]
    for i, service in enumerate(proto.service):
        lines += [f"### service `{service.name}`", "", comments.get((SERVICE, i), ""), ""]
        for j, method in enumerate(service.method):
            stream_in = "stream " if method.client_streaming else ""
            stream_out = "stream " if method.server_streaming else ""
            signature = (
                f"{method.name}({stream_in}{method.input_type.lstrip('.')}) returns "
                f"({stream_out}{method.output_type.lstrip('.')})"
            )
            lines += [f"- `{signature}`: {_cell(comments.get((SERVICE, i, METHOD, j), ''))}"]
        lines.append("")
    for i, enum in enumerate(proto.enum_type):
        _enum(lines, enum, (ENUM, i), comments, "")
    for i, message in enumerate(proto.message_type):
        _message(lines, message, (MESSAGE, i), comments, "")
    return lines


def proto_reference(root: Path) -> str:
    """The page for every ``.proto`` file under ``root`` (the repository's ``proto/``)."""
    files = sorted(root.rglob("*.proto"))
    lines = [
        "# Protocol reference",
        "",
        "Every service, message and enum of the arena's gRPC contract, with the comments of "
        "the `.proto` files, generated from them when the site is built. How a bot uses them: "
        "[bot-protocol.md](../bot-protocol.md).",
        "",
    ]
    names = [str(f.relative_to(root)) for f in files]
    lines += [f"- [{name}](#{anchor(name)})" for name in names] + [""]
    parsed = {proto.name: proto for proto in _descriptors(root, files).file}
    for name in names:  # in the files' order, not protoc's (which puts imports first)
        lines += _file(parsed[name])
    text = "\n".join(lines) + "\n"
    return re.sub(r"\n{3,}", "\n\n", text)  # an element without a comment leaves no gap
