mod cli;
mod pipeline;
mod shaders;
