//! The router and its OpenAPI document.

use super::*;

/// Each operation with its method, from the document as served.
fn operations(doc: &serde_json::Value) -> Vec<(String, &serde_json::Value)> {
    doc["paths"]
        .as_object()
        .into_iter()
        .flatten()
        .flat_map(|(path, item)| {
            item.as_object()
                .into_iter()
                .flatten()
                .map(move |(method, op)| (format!("{method} {path}"), op))
        })
        .collect()
}

#[test]
fn every_operation_with_the_app_key_documents_the_app_headers_and_their_errors() {
    let doc = serde_json::to_value(openapi()).expect("json");
    let schemes = doc["components"]["securitySchemes"]
        .as_object()
        .expect("schemes");
    assert_eq!(
        schemes.keys().collect::<Vec<_>>(),
        ["accessToken", "appKey"],
        "only credentials are security schemes"
    );
    let mut with_key = 0;
    for (name, op) in operations(&doc) {
        let takes_key = op["security"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|r| r.get("appKey").is_some());
        if !takes_key {
            continue;
        }
        with_key += 1;
        for header in ["X-API-DOMAIN", "X-SDK-TYPE"] {
            assert!(
                op["parameters"].as_array().into_iter().flatten().any(|p| {
                    p["name"] == header && p["in"] == "header" && p["required"] == true
                }),
                "{name}: {header}"
            );
        }
        for status in ["400", "401", "403"] {
            assert!(op["responses"][status].is_object(), "{name}: {status}");
        }
        if op["requestBody"]["content"]["application/json"].is_object() {
            assert!(op["responses"]["413"].is_object(), "{name}: 413");
        }
    }
    assert!(with_key > 20, "{with_key}");
}

#[test]
fn nft_content_type_and_scheme_are_the_integers_sent() {
    let doc = serde_json::to_value(openapi()).expect("json");
    for schema in ["NftContentType", "NftScheme"] {
        let schema = &doc["components"]["schemas"][schema];
        assert_eq!(schema["type"], "integer", "{schema}");
        assert_eq!(schema["enum"], serde_json::json!([1, 2]), "{schema}");
    }
    let nft = serde_json::to_value(satchel_api::NftContentType::Video).expect("json");
    assert_eq!(nft, serde_json::json!(2));
}
