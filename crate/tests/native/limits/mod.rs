mod agal_spans;
mod inputs;
