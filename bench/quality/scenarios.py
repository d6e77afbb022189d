"""Delta scenarios: one scripted commit per repository, with its expectations.

Each scenario changes one function's signature, adds two functions and a type,
adds a file and deletes a file, touching at most five files. `apply()` makes
the edits in a checkout and returns what a delta cue must show: every changed
path and every symbol operation, each with a rendering-agnostic matcher. The
added names are unique (quality_probe_*/QualityProbe*), so finding one anywhere
in a delta means the delta reported it; a signature change is found only
when its new parameter appears.
"""

from __future__ import annotations

import os

# op: "replace" (path, old, new) | "append" (path, text) | "add" (path, text) | "delete" (path)
# symbols: (operation, path, name, fragment that must appear, or None for the name)
SCENARIOS = {
    "pallets/flask": {
        "edits": [
            ("replace", "src/flask/helpers.py",
             "def get_template_attribute(template_name: str, attribute: str) -> t.Any:",
             "def get_template_attribute(\n    template_name: str, attribute: str, quality_default: t.Any = None\n) -> t.Any:"),
            ("append", "src/flask/helpers.py",
             "\n\ndef quality_probe_alpha(value: int) -> int:\n    return value + 1\n"),
            ("append", "src/flask/templating.py",
             "\n\ndef quality_probe_beta(name: str) -> str:\n    return name.upper()\n"),
            ("add", "src/flask/quality_probe.py",
             "class QualityProbe:\n    def measure(self) -> int:\n        return 1\n"),
            ("delete", "src/flask/__main__.py"),
        ],
        "symbols": [
            ("signature_changed", "src/flask/helpers.py", "get_template_attribute", "quality_default"),
            ("added", "src/flask/helpers.py", "quality_probe_alpha", None),
            ("added", "src/flask/templating.py", "quality_probe_beta", None),
            ("added", "src/flask/quality_probe.py", "QualityProbe", None),
        ],
    },
    "BurntSushi/ripgrep": {
        "edits": [
            ("replace", "crates/cli/src/escape.rs",
             "pub fn escape(bytes: &[u8]) -> String {",
             "pub fn escape(bytes: &[u8], quality_limit: usize) -> String {"),
            ("append", "crates/cli/src/escape.rs",
             "\npub fn quality_probe_alpha(value: u32) -> u32 {\n    value + 1\n}\n"),
            ("append", "crates/cli/src/human.rs",
             "\npub fn quality_probe_beta(name: &str) -> String {\n    name.to_uppercase()\n}\n"),
            ("add", "crates/cli/src/quality_probe.rs",
             "pub struct QualityProbe {\n    pub value: u32,\n}\n"),
            ("delete", "crates/core/README.md"),
        ],
        "symbols": [
            ("signature_changed", "crates/cli/src/escape.rs", "escape", "quality_limit"),
            ("added", "crates/cli/src/escape.rs", "quality_probe_alpha", None),
            ("added", "crates/cli/src/human.rs", "quality_probe_beta", None),
            ("added", "crates/cli/src/quality_probe.rs", "QualityProbe", None),
        ],
    },
    "spf13/cobra": {
        "edits": [
            ("replace", "args.go",
             "func ExactArgs(n int) PositionalArgs {",
             "func ExactArgs(n int, qualityStrict bool) PositionalArgs {"),
            ("append", "args.go",
             "\nfunc QualityProbeAlpha(n int) int {\n\treturn n + 1\n}\n"),
            ("append", "cobra.go",
             "\nfunc QualityProbeBeta(s string) string {\n\treturn s\n}\n"),
            ("add", "quality_probe.go",
             "package cobra\n\ntype QualityProbe struct {\n\tValue int\n}\n"),
            ("delete", "MAINTAINERS"),
        ],
        "symbols": [
            ("signature_changed", "args.go", "ExactArgs", "qualityStrict"),
            ("added", "args.go", "QualityProbeAlpha", None),
            ("added", "cobra.go", "QualityProbeBeta", None),
            ("added", "quality_probe.go", "QualityProbe", None),
        ],
    },
    "git/git": {
        "edits": [
            ("replace", "strbuf.c",
             "void strbuf_trim(struct strbuf *sb)\n",
             "void strbuf_trim(struct strbuf *sb, int quality_keep)\n"),
            ("append", "strbuf.c",
             "\nint quality_probe_alpha(int n)\n{\n\treturn n + 1;\n}\n"),
            ("append", "abspath.c",
             "\nint quality_probe_beta(int n)\n{\n\treturn n - 1;\n}\n"),
            ("add", "quality-probe.h",
             "#ifndef QUALITY_PROBE_H\n#define QUALITY_PROBE_H\n\nstruct quality_probe_state {\n\tint value;\n};\n\n#endif\n"),
            ("delete", "SECURITY.md"),
        ],
        "symbols": [
            ("signature_changed", "strbuf.c", "strbuf_trim", "quality_keep"),
            ("added", "strbuf.c", "quality_probe_alpha", None),
            ("added", "abspath.c", "quality_probe_beta", None),
            ("added", "quality-probe.h", "quality_probe_state", None),
        ],
    },
    "babel/babel": {
        "edits": [
            ("replace", "packages/babel-template/src/options.ts",
             "export function merge(a: TemplateOpts, b: TemplateOpts): TemplateOpts {",
             "export function merge(\n  a: TemplateOpts,\n  b: TemplateOpts,\n  qualityStrict?: boolean,\n): TemplateOpts {"),
            ("append", "packages/babel-template/src/options.ts",
             "\nexport function qualityProbeAlpha(n: number): number {\n  return n + 1;\n}\n"),
            ("append", "packages/babel-template/src/builder.ts",
             "\nexport function qualityProbeBeta(s: string): string {\n  return s;\n}\n"),
            ("add", "packages/babel-template/src/quality-probe.ts",
             "export class QualityProbe {\n  value = 1;\n}\n"),
            ("delete", "packages/babel-template/README.md"),
        ],
        "symbols": [
            ("signature_changed", "packages/babel-template/src/options.ts", "merge", "qualityStrict"),
            ("added", "packages/babel-template/src/options.ts", "qualityProbeAlpha", None),
            ("added", "packages/babel-template/src/builder.ts", "qualityProbeBeta", None),
            ("added", "packages/babel-template/src/quality-probe.ts", "QualityProbe", None),
        ],
    },
    "google/gson": {
        "edits": [
            ("replace", "gson/src/main/java/com/google/gson/internal/Primitives.java",
             "public static boolean isPrimitive(Type type) {",
             "public static boolean isPrimitive(Type type, boolean qualityStrict) {"),
            ("replace", "gson/src/main/java/com/google/gson/internal/Primitives.java",
             "  public static boolean isWrapperType(Type type) {",
             "  public static int qualityProbeAlpha(int n) {\n    return n + 1;\n  }\n\n"
             "  public static String qualityProbeBeta(String s) {\n    return s;\n  }\n\n"
             "  public static boolean isWrapperType(Type type) {"),
            ("add", "gson/src/main/java/com/google/gson/internal/QualityProbe.java",
             "package com.google.gson.internal;\n\npublic final class QualityProbe {\n  public int value;\n}\n"),
            ("delete", "ReleaseProcess.md"),
        ],
        "symbols": [
            ("signature_changed", "gson/src/main/java/com/google/gson/internal/Primitives.java", "isPrimitive", "qualityStrict"),
            ("added", "gson/src/main/java/com/google/gson/internal/Primitives.java", "qualityProbeAlpha", None),
            ("added", "gson/src/main/java/com/google/gson/internal/Primitives.java", "qualityProbeBeta", None),
            ("added", "gson/src/main/java/com/google/gson/internal/QualityProbe.java", "QualityProbe", None),
        ],
    },
    "expressjs/express": {
        "edits": [
            ("replace", "lib/utils.js",
             "function acceptParams (str) {",
             "function acceptParams (str, qualityStrict) {"),
            ("append", "lib/utils.js",
             "\nfunction qualityProbeAlpha (n) {\n  return n + 1\n}\n"),
            ("append", "lib/request.js",
             "\nfunction qualityProbeBeta (s) {\n  return s\n}\n"),
            ("add", "lib/quality-probe.js",
             "'use strict'\n\nclass QualityProbe {\n  constructor () {\n    this.value = 1\n  }\n}\n\nmodule.exports = QualityProbe\n"),
            ("delete", "examples/hello-world/index.js"),
        ],
        "symbols": [
            ("signature_changed", "lib/utils.js", "acceptParams", "qualityStrict"),
            ("added", "lib/utils.js", "qualityProbeAlpha", None),
            ("added", "lib/request.js", "qualityProbeBeta", None),
            ("added", "lib/quality-probe.js", "QualityProbe", None),
        ],
    },
    "sinatra/sinatra": {
        "edits": [
            ("replace", "lib/sinatra/base.rb",
             "    def uri(addr = nil, absolute = true, add_script_name = true)",
             "    def uri(addr = nil, absolute = true, add_script_name = true, quality_limit = nil)"),
            ("append", "lib/sinatra/indifferent_hash.rb",
             "\nmodule Sinatra\n  def self.quality_probe_alpha(value)\n    value + 1\n  end\nend\n"),
            ("append", "lib/sinatra/version.rb",
             "\nmodule Sinatra\n  def self.quality_probe_beta(name)\n    name.upcase\n  end\nend\n"),
            ("add", "lib/sinatra/quality_probe.rb",
             "module Sinatra\n  class QualityProbe\n    def measure\n      1\n    end\n  end\nend\n"),
            ("delete", "examples/simple.rb"),
        ],
        "symbols": [
            ("signature_changed", "lib/sinatra/base.rb", "uri", "quality_limit"),
            ("added", "lib/sinatra/indifferent_hash.rb", "quality_probe_alpha", None),
            ("added", "lib/sinatra/version.rb", "quality_probe_beta", None),
            ("added", "lib/sinatra/quality_probe.rb", "QualityProbe", None),
        ],
    },
    "rack/rack": {
        "edits": [
            ("replace", "lib/rack/mime.rb",
             "    def mime_type(ext, fallback = 'application/octet-stream')",
             "    def mime_type(ext, fallback = 'application/octet-stream', quality_strict = false)"),
            ("append", "lib/rack/utils.rb",
             "\nmodule Rack\n  module Utils\n    def self.quality_probe_alpha(value)\n      value + 1\n    end\n  end\nend\n"),
            ("append", "lib/rack/version.rb",
             "\nmodule Rack\n  def self.quality_probe_beta(name)\n    name.upcase\n  end\nend\n"),
            ("add", "lib/rack/quality_probe.rb",
             "module Rack\n  class QualityProbe\n    def measure\n      1\n    end\n  end\nend\n"),
            ("delete", "lib/rack/null_logger.rb"),
        ],
        "symbols": [
            ("signature_changed", "lib/rack/mime.rb", "mime_type", "quality_strict"),
            ("added", "lib/rack/utils.rb", "quality_probe_alpha", None),
            ("added", "lib/rack/version.rb", "quality_probe_beta", None),
            ("added", "lib/rack/quality_probe.rb", "QualityProbe", None),
        ],
    },
    "apache/commons-lang": {
        "edits": [
            ("replace", "src/main/java/org/apache/commons/lang3/CharUtils.java",
             "public static boolean isAscii(final char ch) {",
             "public static boolean isAscii(final char ch, final int qualityLimit) {"),
            ("replace", "src/main/java/org/apache/commons/lang3/CharUtils.java",
             "    public CharUtils() {\n        // empty\n    }\n",
             "    public CharUtils() {\n        // empty\n    }\n\n"
             "    public static int qualityProbeAlpha(final int n) {\n        return n + 1;\n    }\n"),
            ("replace", "src/main/java/org/apache/commons/lang3/BooleanUtils.java",
             "    public BooleanUtils() {\n        // empty\n    }\n",
             "    public BooleanUtils() {\n        // empty\n    }\n\n"
             "    public static String qualityProbeBeta(final String s) {\n        return s;\n    }\n"),
            ("add", "src/main/java/org/apache/commons/lang3/QualityProbe.java",
             "package org.apache.commons.lang3;\n\npublic class QualityProbe {\n\n"
             "    public int measure() {\n        return 1;\n    }\n}\n"),
            ("delete", "src/main/java/org/apache/commons/lang3/function/ByteSupplier.java"),
        ],
        "symbols": [
            ("signature_changed", "src/main/java/org/apache/commons/lang3/CharUtils.java", "isAscii", "qualityLimit"),
            ("added", "src/main/java/org/apache/commons/lang3/CharUtils.java", "qualityProbeAlpha", None),
            ("added", "src/main/java/org/apache/commons/lang3/BooleanUtils.java", "qualityProbeBeta", None),
            ("added", "src/main/java/org/apache/commons/lang3/QualityProbe.java", "QualityProbe", None),
        ],
    },
    "sindresorhus/ky": {
        "edits": [
            ("replace", "source/utils/type-guards.ts",
             "export function isTimeoutError(error: unknown): error is TimeoutError {",
             "export function isTimeoutError(error: unknown, qualityStrict?: boolean): error is TimeoutError {"),
            ("append", "source/utils/type-guards.ts",
             "\nexport function qualityProbeAlpha(n: number): number {\n\treturn n + 1;\n}\n"),
            ("append", "source/utils/normalize.ts",
             "\nexport function qualityProbeBeta(s: string): string {\n\treturn s;\n}\n"),
            ("add", "source/utils/qualityProbe.ts",
             "export class QualityProbe {\n\tmeasure(): number {\n\t\treturn 1;\n\t}\n}\n"),
            ("delete", "source/utils/is.ts"),
        ],
        "symbols": [
            ("signature_changed", "source/utils/type-guards.ts", "isTimeoutError", "qualityStrict"),
            ("added", "source/utils/type-guards.ts", "qualityProbeAlpha", None),
            ("added", "source/utils/normalize.ts", "qualityProbeBeta", None),
            ("added", "source/utils/qualityProbe.ts", "QualityProbe", None),
        ],
    },
    "thephpleague/flysystem": {
        "edits": [
            ("replace", "src/Config.php",
             "    public function withDefaults(array $defaults): Config\n",
             "    public function withDefaults(array $defaults, bool $qualityStrict = false): Config\n"),
            ("replace", "src/Config.php",
             "    public function toArray(): array\n",
             "    public function qualityProbeAlpha(int $n): int\n    {\n        return $n + 1;\n    }\n\n"
             "    public function toArray(): array\n"),
            ("replace", "src/DirectoryListing.php",
             "    /**\n     * @return T[]\n     */\n    public function toArray(): array\n",
             "    public function qualityProbeBeta(string $s): string\n    {\n        return $s;\n    }\n\n"
             "    /**\n     * @return T[]\n     */\n    public function toArray(): array\n"),
            ("add", "src/QualityProbe.php",
             "<?php\n\ndeclare(strict_types=1);\n\nnamespace League\\Flysystem;\n\nfinal class QualityProbe\n{\n"
             "    public function measure(): int\n    {\n        return 1;\n    }\n}\n"),
            ("delete", "src/UnreadableFileEncountered.php"),
        ],
        "symbols": [
            ("signature_changed", "src/Config.php", "withDefaults", "qualityStrict"),
            ("added", "src/Config.php", "qualityProbeAlpha", None),
            ("added", "src/DirectoryListing.php", "qualityProbeBeta", None),
            ("added", "src/QualityProbe.php", "QualityProbe", None),
        ],
    },
    "jbeder/yaml-cpp": {
        "edits": [
            ("replace", "src/emitterutils.cpp",
             "bool IsValidSingleQuotedScalar(const char* str, std::size_t size, bool escapeNonAscii) {",
             "bool IsValidSingleQuotedScalar(const char* str, std::size_t size, bool escapeNonAscii,\n"
             "                               bool quality_strict = false) {"),
            ("append", "src/emitterutils.cpp",
             "\nnamespace YAML {\nint quality_probe_alpha(int n) { return n + 1; }\n}  // namespace YAML\n"),
            ("append", "src/exp.cpp",
             "\nnamespace YAML {\nint quality_probe_beta(int n) { return n - 1; }\n}  // namespace YAML\n"),
            ("add", "src/quality_probe.h",
             "#ifndef QUALITY_PROBE_H_\n#define QUALITY_PROBE_H_\n\nnamespace YAML {\n"
             "struct QualityProbe {\n  int measure() const { return 1; }\n};\n}  // namespace YAML\n\n"
             "#endif  // QUALITY_PROBE_H_\n"),
            ("delete", "util/api.cpp"),
        ],
        "symbols": [
            ("signature_changed", "src/emitterutils.cpp", "IsValidSingleQuotedScalar", "quality_strict"),
            ("added", "src/emitterutils.cpp", "quality_probe_alpha", None),
            ("added", "src/exp.cpp", "quality_probe_beta", None),
            ("added", "src/quality_probe.h", "QualityProbe", None),
        ],
    },
    "serilog/serilog": {
        "edits": [
            ("replace", "src/Serilog/Context/LogContext.cs",
             "    public static IDisposable PushProperty(string name, object? value, bool destructureObjects = false)\n",
             "    public static IDisposable PushProperty(string name, object? value, bool destructureObjects = false,\n"
             "        bool qualityStrict = false)\n"),
            ("append", "src/Serilog/Context/LogContext.cs",
             "\n/// <summary>Quality harness probe.</summary>\npublic static class QualityAlphaHost\n{\n"
             "    /// <summary>Quality harness probe.</summary>\n    public static int QualityProbeAlpha(int n)\n"
             "    {\n        return n + 1;\n    }\n}\n"),
            ("append", "src/Serilog/Debugging/SelfLog.cs",
             "\n/// <summary>Quality harness probe.</summary>\npublic static class QualityBetaHost\n{\n"
             "    /// <summary>Quality harness probe.</summary>\n    public static string QualityProbeBeta(string s)\n"
             "    {\n        return s;\n    }\n}\n"),
            # The file is not named for the type, so that its path alone does not name QualityProbe.
            ("add", "src/Serilog/Core/QualityProbes.cs",
             "namespace Serilog.Core;\n\n/// <summary>Quality harness probe.</summary>\npublic sealed class QualityProbe\n{\n"
             "    /// <summary>Quality harness probe.</summary>\n    public int Measure()\n    {\n        return 1;\n    }\n}\n"),
            ("delete", "src/Serilog/Core/Filters/DelegateFilter.cs"),
        ],
        "symbols": [
            ("signature_changed", "src/Serilog/Context/LogContext.cs", "PushProperty", "qualityStrict"),
            ("added", "src/Serilog/Context/LogContext.cs", "QualityProbeAlpha", None),
            ("added", "src/Serilog/Debugging/SelfLog.cs", "QualityProbeBeta", None),
            ("added", "src/Serilog/Core/QualityProbes.cs", "QualityProbe", None),
        ],
    },
    "encode/httpx": {
        "edits": [
            ("replace", "httpx/_config.py",
             "    trust_env: bool = True,\n) -> ssl.SSLContext:\n",
             "    trust_env: bool = True,\n    quality_strict: bool = False,\n) -> ssl.SSLContext:\n"),
            ("append", "httpx/_config.py",
             "\n\ndef quality_probe_alpha(value: int) -> int:\n    return value + 1\n"),
            ("append", "httpx/_utils.py",
             "\n\ndef quality_probe_beta(name: str) -> str:\n    return name.upper()\n"),
            ("add", "httpx/_quality_probe.py",
             "class QualityProbe:\n    def measure(self) -> int:\n        return 1\n"),
            ("delete", "httpx/_main.py"),
        ],
        "symbols": [
            ("signature_changed", "httpx/_config.py", "create_ssl_context", "quality_strict"),
            ("added", "httpx/_config.py", "quality_probe_alpha", None),
            ("added", "httpx/_utils.py", "quality_probe_beta", None),
            ("added", "httpx/_quality_probe.py", "QualityProbe", None),
        ],
    },
}


class ScenarioError(Exception):
    pass


def apply(repo: str, checkout: str) -> dict:
    """Edit `checkout` (not committed) and return the expectations of the delta."""
    scenario = SCENARIOS[repo]
    paths: dict[str, str] = {}
    for edit in scenario["edits"]:
        kind, path = edit[0], edit[1]
        full = os.path.join(checkout, path)
        if kind == "replace":
            old, new = edit[2], edit[3]
            with open(full, encoding="utf-8") as handle:
                text = handle.read()
            if text.count(old) != 1:
                raise ScenarioError(f"{repo}: {path}: anchor found {text.count(old)} times: {old!r}")
            with open(full, "w", encoding="utf-8") as handle:
                handle.write(text.replace(old, new))
            paths.setdefault(path, "modified")
        elif kind == "append":
            with open(full, "a", encoding="utf-8") as handle:
                handle.write(edit[2])
            paths.setdefault(path, "modified")
        elif kind == "add":
            if os.path.exists(full):
                raise ScenarioError(f"{repo}: {path} already exists")
            os.makedirs(os.path.dirname(full) or ".", exist_ok=True)
            with open(full, "w", encoding="utf-8") as handle:
                handle.write(edit[2])
            paths[path] = "added"
        elif kind == "delete":
            if not os.path.exists(full):
                raise ScenarioError(f"{repo}: {path} does not exist")
            os.remove(full)
            paths[path] = "deleted"
        else:
            raise ScenarioError(f"unknown edit {kind}")
    if len(paths) > 5:
        raise ScenarioError(f"{repo}: scenario touches {len(paths)} files (at most 5)")
    return {
        "paths": [{"path": p, "op": op} for p, op in sorted(paths.items())],
        "symbols": [
            {"op": op, "path": path, "name": name, "fragment": fragment or name}
            for op, path, name, fragment in scenario["symbols"]
        ],
    }
