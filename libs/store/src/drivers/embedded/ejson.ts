import { mongo } from "mongoose";

/** Extended JSON (relaxed): plain JSON numbers and strings, Dates as `{"$date": "..."}`, so types survive a round trip. */
const { EJSON } = mongo.BSON;

export function encodeEjson(value: unknown): string {
  return EJSON.stringify(value, { relaxed: true });
}

export function decodeEjson(text: string): unknown {
  return EJSON.parse(text, { relaxed: true });
}
