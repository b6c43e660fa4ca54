//! The validator: tgsi_sanity's checks and the many Mesa misses (`mesa-tgsi-notes.md` §4),
//! control flow, operands, stages, semantics, linkage and limits. One file per concern.
