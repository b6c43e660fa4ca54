mod agal_spans;
mod inputs;
mod timeout;
