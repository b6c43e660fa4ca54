mod bands;
mod cli;
mod pipeline;
mod shaders;
mod trace;
mod vertices;
