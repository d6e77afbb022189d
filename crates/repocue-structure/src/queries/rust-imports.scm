(use_declaration argument: (_) @import)

(extern_crate_declaration name: (identifier) @import)

; What a `pub use` hands on (`FileFacts::reexports`): a crate root's public API, where a
; private `use` only brings a name in (clap_complete_nushell's `use clap::ValueHint`).
; `pub(crate) use` hands nothing on outside the crate. Under an alias (`pub use imp::Other as
; Renamed`) the crate's name is the alias, which no file defines: neither name is listed (the
; original was, a name users cannot import), as for JavaScript's `export { a as b } from`; the
; original stays a reference (rust-tags.scm). Only the
; file's own items: a `pub use` inside an inline module (anyhow's `#[doc(hidden)] pub mod
; __private { pub use crate::kind::AdhocKind; }`) hands on to that module.
(source_file (use_declaration
  (visibility_modifier) @_pub
  argument: [
    (identifier) @reexport
    (scoped_identifier name: (identifier) @reexport)
    (scoped_use_list list: (use_list [
      (identifier) @reexport
      (scoped_identifier name: (identifier) @reexport)
      (scoped_use_list list: (use_list [
        (identifier) @reexport
        (scoped_identifier name: (identifier) @reexport)
      ]))
    ]))
    (use_list [
      (identifier) @reexport
      (scoped_identifier name: (identifier) @reexport)
    ])
  ]
  (#eq? @_pub "pub")))

; A module a crate's file hands on whole (`pub use crate::engine::*;`, regex's root re-exports
; its private modules so): every public item of it is the file's (`FileFacts::star_exports`).
(source_file (use_declaration
  (visibility_modifier) @_pub
  argument: (use_wildcard [(identifier) (scoped_identifier) (crate) (self)] @star_export)
  (#eq? @_pub "pub")))
