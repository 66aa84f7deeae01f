/// The OpenAPI 3.1 document of `livestate serve`, served at `GET /openapi.json`.
///
/// Kept as a literal so the server needs no resource bundle beside the binary;
/// `livestate serve --openapi` prints it, and the tests check that it parses and names every route.
public enum OpenAPIDocument {
    /// The document's JSON text.
    public static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "LiveState validation sidecar",
    "version": "1.0.0",
    "summary": "Validate and encode iOS Live Activity push payloads against LiveState YAML schemas.",
    "description": "Started by `livestate serve`. Listens on loopback by default and has no authentication. Every body in and out is JSON. Diagnostics are the objects `livestate --format json` prints. Request bodies over 64 KiB are refused with 413. A payload that is invalid, even one that is not JSON, is still answered with 200: `ok` is false and the diagnostics say why. SIGHUP reloads the schemas; a reload that fails keeps the schemas already loaded. Every GET answers HEAD as well; a method a path does not serve gets 405 with `Allow` (`method-not-allowed`); every error body is the `Error` object."
  },
  "servers": [
    {
      "url": "http://127.0.0.1:8080"
    }
  ],
  "paths": {
    "/health": {
      "get": {
        "operationId": "health",
        "summary": "Liveness, with the number of schemas loaded.",
        "responses": {
          "200": {
            "description": "The server answers.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Health"
                }
              }
            }
          }
        }
      }
    },
    "/ready": {
      "get": {
        "operationId": "ready",
        "summary": "Readiness: 200 while a schema set is loaded, 503 while none is.",
        "responses": {
          "200": {
            "description": "A schema set is loaded.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Ready"
                }
              }
            }
          },
          "503": {
            "description": "No schema set is loaded.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Ready"
                }
              }
            }
          }
        }
      }
    },
    "/metrics": {
      "get": {
        "operationId": "metrics",
        "summary": "Prometheus text: requests by route, method and status; latency and body-size histograms; validations by schema, version and outcome; diagnostics by code; the schema generation and the last reload's result.",
        "responses": {
          "200": {
            "description": "The Prometheus text exposition format, version 0.0.4.",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/openapi.json": {
      "get": {
        "operationId": "openapi",
        "summary": "This document.",
        "responses": {
          "200": {
            "description": "The OpenAPI 3.1 document.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          }
        }
      }
    },
    "/v1/schemas": {
      "get": {
        "operationId": "listSchemas",
        "summary": "The schemas loaded: ids and versions.",
        "responses": {
          "200": {
            "description": "The schemas of the current snapshot.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SchemaList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadQuery"
          }
        }
      }
    },
    "/v1/schemas/{id}/diff": {
      "get": {
        "operationId": "diffSchema",
        "summary": "The compatibility report between the schema's versions, as `livestate diff --format json` prints it.",
        "parameters": [
          {
            "$ref": "#/components/parameters/SchemaID"
          },
          {
            "name": "mode",
            "in": "query",
            "description": "The gate; default: the schema's `compatibility:`. With `from` and `to`, which ways to read the pair.",
            "schema": {
              "$ref": "#/components/schemas/CompatibilityMode"
            }
          },
          {
            "name": "from",
            "in": "query",
            "description": "One version of a single pair to check (with `to`).",
            "schema": {
              "type": "integer",
              "minimum": 1
            }
          },
          {
            "name": "to",
            "in": "query",
            "description": "The other version of the pair (with `from`).",
            "schema": {
              "type": "integer",
              "minimum": 1
            }
          },
          {
            "name": "fail-on",
            "in": "query",
            "description": "The lowest severity that makes `passes` false.",
            "schema": {
              "type": "string",
              "enum": [
                "error",
                "warning",
                "info"
              ],
              "default": "error"
            }
          },
          {
            "name": "assume-default-elision",
            "in": "query",
            "description": "Assume servers leave out values equal to their default: default changes become errors.",
            "schema": {
              "type": "boolean",
              "default": false
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The report; `passes` says whether the gate holds.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DiffReport"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadQuery"
          },
          "404": {
            "$ref": "#/components/responses/UnknownSchema"
          }
        }
      }
    },
    "/v1/schemas/{id}/validate": {
      "post": {
        "operationId": "validatePayload",
        "summary": "Validate a whole APNs body (`{\"aps\": {...}}`) for one app version, or for every version.",
        "parameters": [
          {
            "$ref": "#/components/parameters/SchemaID"
          },
          {
            "$ref": "#/components/parameters/ValidateVersion"
          },
          {
            "$ref": "#/components/parameters/Broadcast"
          },
          {
            "$ref": "#/components/parameters/MaxDrop"
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The APNs body, at most 65536 bytes. Any bytes are accepted: text that is not JSON is answered with `json-syntax` diagnostics.",
          "content": {
            "application/json": {
              "schema": {
                "type": "object"
              },
              "example": {
                "aps": {
                  "timestamp": 1795000000,
                  "event": "update",
                  "content-state": {
                    "title": "On the way",
                    "progress": 0.6
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The findings, valid payload or not.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ValidateResponse"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadQuery"
          },
          "404": {
            "$ref": "#/components/responses/UnknownSchema"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          }
        }
      }
    },
    "/v1/schemas/{id}/validate-batch": {
      "post": {
        "operationId": "validateBatch",
        "summary": "Validate many APNs bodies at once: NDJSON in (one body per line), one result per line out, in order.",
        "parameters": [
          {
            "$ref": "#/components/parameters/SchemaID"
          },
          {
            "$ref": "#/components/parameters/ValidateVersion"
          },
          {
            "$ref": "#/components/parameters/Broadcast"
          },
          {
            "$ref": "#/components/parameters/MaxDrop"
          }
        ],
        "requestBody": {
          "required": true,
          "description": "NDJSON: one APNs body per line (`\\n` or `\\r\\n`; a final newline ends the last line), at most 10000 lines and 4194304 bytes (`serve --max-batch-bytes`). A line that is not JSON gets its own `json-syntax` result; the others go on.",
          "content": {
            "application/x-ndjson": {
              "schema": {
                "type": "string"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "One `ValidateResponse` per input line, each with `line` (1-based) first, one per line of the NDJSON answer, streamed as they are made.",
            "content": {
              "application/x-ndjson": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadQuery"
          },
          "404": {
            "$ref": "#/components/responses/UnknownSchema"
          },
          "413": {
            "description": "The body is over the byte limit (`payload-too-large`) or has more than 10000 lines (`too-many-lines`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          }
        }
      }
    },
    "/v1/schemas/{id}/encode": {
      "post": {
        "operationId": "encodePayload",
        "summary": "Write the APNs payload (or the bare content-state) for a version from a state.",
        "parameters": [
          {
            "$ref": "#/components/parameters/SchemaID"
          },
          {
            "name": "version",
            "in": "query",
            "description": "The version to write for. Default: the newest.",
            "schema": {
              "type": "integer",
              "minimum": 1
            }
          },
          {
            "name": "event",
            "in": "query",
            "description": "The event. A start needs static attributes, which this endpoint does not take: use `livestate encode --attributes`.",
            "schema": {
              "type": "string",
              "enum": [
                "update",
                "end"
              ],
              "default": "update"
            }
          },
          {
            "name": "timestamp",
            "in": "query",
            "description": "UNIX seconds, or `now` (the default).",
            "schema": {
              "oneOf": [
                {
                  "type": "integer",
                  "minimum": 0
                },
                {
                  "type": "string",
                  "const": "now"
                }
              ]
            }
          },
          {
            "name": "stale-date",
            "in": "query",
            "description": "UNIX seconds after which the activity shows as stale.",
            "schema": {
              "type": "integer",
              "minimum": 0
            }
          },
          {
            "name": "dismissal-date",
            "in": "query",
            "description": "UNIX seconds at which an ended activity leaves the screen.",
            "schema": {
              "type": "integer",
              "minimum": 0
            }
          },
          {
            "name": "relevance-score",
            "in": "query",
            "description": "The relevance score.",
            "schema": {
              "type": "number"
            }
          },
          {
            "name": "fit",
            "in": "query",
            "description": "When over budget, drop `drop-priority` fields and shorten `truncate` strings until the payload fits.",
            "schema": {
              "type": "boolean",
              "default": false
            }
          },
          {
            "name": "elide-defaults",
            "in": "query",
            "description": "Leave out values equal to their default where every app version decodes tolerantly with that default.",
            "schema": {
              "type": "boolean",
              "default": false
            }
          },
          {
            "name": "broadcast",
            "in": "query",
            "description": "A broadcast push: 5120-byte limit.",
            "schema": {
              "type": "boolean",
              "default": false
            }
          },
          {
            "name": "content-state",
            "in": "query",
            "description": "Write the bare content-state, not a whole APNs body; takes no envelope parameters.",
            "schema": {
              "type": "boolean",
              "default": false
            }
          }
        ],
        "requestBody": {
          "required": true,
          "description": "A content-state object, at most 65536 bytes. Missing fields take their defaults; anything that does not fit the version is an error.",
          "content": {
            "application/json": {
              "schema": {
                "type": "object"
              },
              "example": {
                "title": "On the way",
                "progress": 0.6,
                "status": "delivering"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The payload, or null with the diagnostics that say why it could not be written.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/EncodeResponse"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadQuery"
          },
          "404": {
            "$ref": "#/components/responses/UnknownSchema"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          }
        }
      }
    }
  },
  "components": {
    "parameters": {
      "ValidateVersion": {
        "name": "version",
        "in": "query",
        "description": "The app version to check for, or `all` for every version (the answer then says which versions drop the update). Default: the newest.",
        "schema": {
          "oneOf": [
            {
              "type": "integer",
              "minimum": 1
            },
            {
              "type": "string",
              "const": "all"
            }
          ]
        }
      },
      "Broadcast": {
        "name": "broadcast",
        "in": "query",
        "description": "The push is a broadcast: 5120-byte limit, no start.",
        "schema": {
          "type": "boolean",
          "default": false
        }
      },
      "MaxDrop": {
        "name": "max-drop",
        "in": "query",
        "description": "With `version=all`, for a schema served with a fleet file (`serve --fleet`): the share of devices that may drop the update before its errors count, `1%` or `1` (default 0%). 400 for a schema without a fleet file.",
        "schema": {
          "type": "string",
          "pattern": "^[0-9.]+%?$"
        }
      },
      "SchemaID": {
        "name": "id",
        "in": "path",
        "required": true,
        "description": "The schema's id: its `activity`, the schema file's stem.",
        "schema": {
          "type": "string"
        }
      }
    },
    "responses": {
      "BadQuery": {
        "description": "A query parameter is unknown, repeated or malformed (`bad-query`), or names a version the schema does not have (`unknown-version`), or the body is not valid HTTP/1.1, such as a bad chunk size or a truncated chunk (`bad-request`).",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "UnknownSchema": {
        "description": "No schema has this id (`unknown-schema`).",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "UnsupportedMediaType": {
        "description": "The request's `Content-Type` is not JSON (`unsupported-media-type`): send `application/json`, an `application/…+json` type, or none.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "PayloadTooLarge": {
        "description": "The body is over 65536 bytes (`payload-too-large`); it is refused before it is read whole.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      }
    },
    "schemas": {
      "Severity": {
        "type": "string",
        "enum": [
          "error",
          "warning",
          "info"
        ]
      },
      "CompatibilityMode": {
        "type": "string",
        "enum": [
          "backward",
          "forward",
          "full",
          "backward-transitive",
          "forward-transitive",
          "full-transitive",
          "none"
        ]
      },
      "Diagnostic": {
        "type": "object",
        "description": "One finding, as the CLI prints it. `line` and `column` are 1-based, in UTF-8 bytes; `pointer` is a JSON Pointer relative to `scope`'s object.",
        "required": [
          "code",
          "severity",
          "message",
          "file",
          "line",
          "column",
          "scope",
          "pointer"
        ],
        "properties": {
          "code": {
            "type": "string",
            "description": "A stable kebab-case code, such as `json-syntax` or `unknown-key`."
          },
          "severity": {
            "$ref": "#/components/schemas/Severity"
          },
          "message": {
            "type": "string"
          },
          "file": {
            "type": [
              "string",
              "null"
            ]
          },
          "line": {
            "type": [
              "integer",
              "null"
            ]
          },
          "column": {
            "type": [
              "integer",
              "null"
            ]
          },
          "scope": {
            "type": [
              "string",
              "null"
            ],
            "enum": [
              "content-state",
              "attributes",
              "envelope",
              "schema",
              null
            ]
          },
          "pointer": {
            "type": [
              "string",
              "null"
            ]
          }
        }
      },
      "Budget": {
        "type": "object",
        "description": "The byte budget: the body against the APNs limit, the content-state as sent and as the device may re-encode it, and bytes per top-level content-state field.",
        "required": [
          "limit",
          "body",
          "headroom",
          "contentState",
          "deviceWorstCase",
          "fields"
        ],
        "properties": {
          "limit": {
            "type": "integer"
          },
          "body": {
            "type": "integer"
          },
          "headroom": {
            "type": "integer"
          },
          "contentState": {
            "type": [
              "integer",
              "null"
            ]
          },
          "deviceWorstCase": {
            "type": [
              "integer",
              "null"
            ]
          },
          "fields": {
            "type": "object",
            "additionalProperties": {
              "type": "integer"
            }
          }
        }
      },
      "ValidateResponse": {
        "type": "object",
        "required": [
          "ok",
          "schema",
          "version",
          "decodes",
          "diagnostics",
          "budget"
        ],
        "properties": {
          "ok": {
            "type": "boolean",
            "description": "No diagnostic is an error."
          },
          "schema": {
            "type": "string"
          },
          "version": {
            "oneOf": [
              {
                "type": "integer"
              },
              {
                "type": "string",
                "const": "all"
              }
            ]
          },
          "decodes": {
            "type": "object",
            "description": "Per app version (one, or every one with `version=all`): whether it applies the update.",
            "additionalProperties": {
              "type": "boolean"
            }
          },
          "diagnostics": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Diagnostic"
            }
          },
          "budget": {
            "$ref": "#/components/schemas/Budget"
          },
          "fleet": {
            "type": "object",
            "description": "With `version=all`, for a schema served with a fleet file: the devices that drop the update and those that fall back to defaults, and whether `max-drop` accepts the drop.",
            "required": ["total", "dropping", "degraded", "maxDrop", "accepted"],
            "properties": {
              "total": { "type": "integer" },
              "dropping": { "$ref": "#/components/schemas/FleetShare" },
              "degraded": { "$ref": "#/components/schemas/FleetShare" },
              "maxDrop": { "type": "number" },
              "accepted": { "type": "boolean" }
            }
          }
        }
      },
      "FleetShare": {
        "type": "object",
        "required": ["versions", "devices", "share", "percent"],
        "properties": {
          "versions": { "type": "array", "items": { "type": "integer" } },
          "devices": { "type": "integer" },
          "share": { "type": "number", "description": "From 0 to 1." },
          "percent": { "type": "string", "description": "The share as messages write it: 3.1%, <0.1%." }
        }
      },
      "EncodeResponse": {
        "type": "object",
        "required": [
          "ok",
          "schema",
          "version",
          "payload",
          "diagnostics",
          "budget"
        ],
        "properties": {
          "ok": {
            "type": "boolean",
            "description": "The payload was written and no diagnostic is an error."
          },
          "schema": {
            "type": "string"
          },
          "version": {
            "type": "integer"
          },
          "payload": {
            "type": [
              "object",
              "null"
            ],
            "description": "The payload exactly as the encoder wrote it: schema key order, compact."
          },
          "diagnostics": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Diagnostic"
            }
          },
          "budget": {
            "oneOf": [
              {
                "$ref": "#/components/schemas/Budget"
              },
              {
                "type": "null"
              }
            ]
          }
        }
      },
      "DiffReport": {
        "type": "object",
        "required": [
          "activity",
          "mode",
          "passes",
          "failOn",
          "pairs",
          "findings",
          "diagnostics"
        ],
        "properties": {
          "activity": {
            "type": "string"
          },
          "file": {
            "type": [
              "string",
              "null"
            ]
          },
          "mode": {
            "$ref": "#/components/schemas/CompatibilityMode"
          },
          "passes": {
            "type": "boolean",
            "description": "No finding at or above `failOn`."
          },
          "failOn": {
            "$ref": "#/components/schemas/Severity"
          },
          "pairs": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "readerVersion": {
                  "type": "integer"
                },
                "writerVersion": {
                  "type": "integer"
                },
                "direction": {
                  "type": "string",
                  "enum": [
                    "old-app-reads-new",
                    "new-app-reads-old"
                  ]
                }
              }
            }
          },
          "findings": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "rule": {
                  "type": "string"
                },
                "severity": {
                  "$ref": "#/components/schemas/Severity"
                },
                "direction": {
                  "type": "string"
                },
                "readerVersion": {
                  "type": "integer"
                },
                "writerVersion": {
                  "type": "integer"
                },
                "message": {
                  "type": "string"
                },
                "file": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "line": {
                  "type": [
                    "integer",
                    "null"
                  ]
                },
                "column": {
                  "type": [
                    "integer",
                    "null"
                  ]
                },
                "scope": {
                  "type": "string"
                },
                "pointer": {
                  "type": "string"
                }
              }
            }
          },
          "diagnostics": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Diagnostic"
            }
          }
        }
      },
      "SchemaList": {
        "type": "object",
        "required": [
          "generation",
          "schemas",
          "diagnostics"
        ],
        "properties": {
          "generation": {
            "type": "integer",
            "description": "1 for the schemas loaded at start, one more per successful reload."
          },
          "schemas": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "id",
                "versions",
                "latest"
              ],
              "properties": {
                "id": {
                  "type": "string"
                },
                "attributesType": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "compatibility": {
                  "$ref": "#/components/schemas/CompatibilityMode"
                },
                "versions": {
                  "type": "array",
                  "items": {
                    "type": "integer"
                  }
                },
                "latest": {
                  "type": [
                    "integer",
                    "null"
                  ]
                },
                "strictClients": {
                  "type": "array",
                  "items": {
                    "type": "integer"
                  }
                },
                "file": {
                  "type": [
                    "string",
                    "null"
                  ]
                }
              }
            }
          },
          "diagnostics": {
            "type": "array",
            "description": "Warnings from loading the schemas.",
            "items": {
              "$ref": "#/components/schemas/Diagnostic"
            }
          }
        }
      },
      "Health": {
        "type": "object",
        "required": [
          "status",
          "generation",
          "schemas"
        ],
        "properties": {
          "status": {
            "type": "string",
            "const": "ok"
          },
          "generation": {
            "type": "integer"
          },
          "schemas": {
            "type": "integer",
            "description": "How many schemas are loaded."
          },
          "lastReload": {
            "type": "object",
            "description": "The last reload (SIGHUP or --watch); absent before the first. A failed one kept the loaded set.",
            "required": [
              "ok",
              "generation",
              "at",
              "diagnostics"
            ],
            "properties": {
              "ok": {
                "type": "boolean"
              },
              "generation": {
                "type": "integer",
                "description": "The generation served after it."
              },
              "at": {
                "type": "string",
                "format": "date-time"
              },
              "diagnostics": {
                "type": "array",
                "description": "Why it failed.",
                "items": {
                  "$ref": "#/components/schemas/Diagnostic"
                }
              }
            }
          }
        }
      },
      "Ready": {
        "type": "object",
        "required": [
          "ready",
          "generation",
          "schemas"
        ],
        "properties": {
          "ready": {
            "type": "boolean"
          },
          "generation": {
            "type": "integer"
          },
          "schemas": {
            "type": "integer"
          }
        }
      },
      "Error": {
        "type": "object",
        "required": [
          "error"
        ],
        "properties": {
          "error": {
            "type": "object",
            "required": [
              "status",
              "code",
              "message"
            ],
            "properties": {
              "status": {
                "type": "integer"
              },
              "code": {
                "type": "string",
                "description": "A stable kebab-case code: `bad-query`, `unknown-version`, `unknown-schema`, `not-found`, `payload-too-large` or `internal`."
              },
              "message": {
                "type": "string"
              }
            }
          }
        }
      }
    }
  }
}
"""#

    /// The document's UTF-8 bytes, as served.
    static let bytes: [UInt8] = Array(json.utf8)
}
