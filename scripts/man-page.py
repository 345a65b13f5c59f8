#!/usr/bin/env python3
"""A man page (roff) from `tessera --experimental-dump-help` on stdin: swift-argument-parser's
own description of the command, its options and its subcommands, so the page cannot drift
from --help. Used when the generate-manual plugin is not available."""
import json
import sys


def roff(text):
    """Text safe for roff: backslashes doubled, a leading dot or quote escaped."""
    text = (text or "").replace("\\", "\\e")
    return "\n".join(("\\&" + line if line[:1] in ".'" else line) for line in text.split("\n"))


def synopsis(argument):
    names = argument.get("names") or []
    long = [n["name"] for n in names if n["kind"] in ("long", "longWithSingleDash")]
    short = [n["name"] for n in names if n["kind"] == "short"]
    spelled = ", ".join(["-" + s for s in short] + ["--" + l for l in long])
    if argument["kind"] == "positional":
        spelled = "<" + argument.get("valueName", "value") + ">"
    elif argument["kind"] == "option":
        spelled += " <" + argument.get("valueName", "value") + ">"
    return spelled


def section(command, path, out):
    out.append('.SH "%s"' % roff(" ".join(path)).upper() if len(path) > 1 else ".SH DESCRIPTION")
    if command.get("abstract"):
        out.append(roff(command["abstract"]))
    if command.get("discussion"):
        out.append(".PP")
        out.append(roff(command["discussion"]))
    arguments = [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)]
    if arguments:
        for argument in arguments:
            out.append(".TP")
            out.append("\\fB%s\\fR" % roff(synopsis(argument)))
            text = argument.get("abstract", "")
            values = argument.get("allValues") or argument.get("allValueStrings")
            if values:
                text += " (values: %s)" % ", ".join(values)
            if argument.get("defaultValue"):
                text += " (default: %s)" % argument["defaultValue"]
            out.append(roff(text))
    for sub in command.get("subcommands", []):
        section(sub, path + [sub["commandName"]], out)


def main():
    info = json.load(sys.stdin)["command"]
    name = info["commandName"]
    out = ['.TH "%s" "1" "" "%s" "User Commands"' % (name.upper(), name)]
    out += [".SH NAME", "%s \\- %s" % (name, roff(info.get("abstract", "")))]
    out += [".SH SYNOPSIS", ".B %s" % name, "[PATH|URL]... [options]"]
    section(info, [name], out)
    print("\n".join(line for line in out if line != ""))


main()
