(call
  method: (identifier) @_require
  arguments: (argument_list . (string) @import)
  (#any-of? @_require "require" "require_relative" "load"))

; What a gem's root makes part of its namespace without defining it: `autoload :Builder,
; "rack/builder"` (rack's `lib/rack.rb`: "all modules meant for use in your application are
; autoloaded here"), as a JavaScript index's `export { a } from "./x"` does
; (`FileFacts::reexports`). The path is what a `require` of it would load.
; (ActiveSupport's `autoload :Base` names no path.)
(call
  method: (identifier) @_autoload
  arguments: (argument_list . (simple_symbol) @reexport)
  (#eq? @_autoload "autoload"))
(call
  method: (identifier) @_autoload
  arguments: (argument_list . (simple_symbol) . (string) @import)
  (#eq? @_autoload "autoload"))
