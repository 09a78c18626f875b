/** A request id such as req_5f0c3a9d2b7e41c8a6f1: prefixed so it is recognizable in logs. */
export declare function newRequestId(): string;
