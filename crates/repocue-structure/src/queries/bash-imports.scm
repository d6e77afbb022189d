(command
  name: (command_name (word) @_source)
  .
  argument: (_) @import
  (#any-of? @_source "source" "."))
