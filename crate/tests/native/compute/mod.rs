mod cli;
mod dispatch;
mod threads;
