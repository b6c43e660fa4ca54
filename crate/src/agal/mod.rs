//! AGAL (Adobe Stage3D) bytecode: model, encoder/decoder, assembler, disassembler, validator and
//! the TGSI → AGAL export (`agal.md`).
