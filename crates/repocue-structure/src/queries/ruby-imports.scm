(call
  method: (identifier) @_require
  arguments: (argument_list . (string) @import)
  (#any-of? @_require "require" "require_relative" "load"))
