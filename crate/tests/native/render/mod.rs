mod cli;
mod pipeline;
mod shaders;
mod trace;
