#!/usr/bin/env python3
# Writes seed corpora from fixtures/sample (one small valid item per file) so the fuzzer starts deep.
import json, os, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sample = os.path.join(root, "fixtures", "sample")
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "fuzz", "corpus")


def write(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def load(rel):
    with open(os.path.join(sample, rel)) as f:
        return json.load(f)


products = load("catalog/products.json")["data"]
for p in products:
    write("export_products", f"product-{p['id']}", json.dumps({"data": [p]}))
# Price records grouped by product, so a seed is a product's whole price list.
variant_owner = {v["id"]: p["id"] for p in products for v in p.get("variants", [])}
by_product = {}
for r in load("catalog/price-lists.json")["data"]:
    by_product.setdefault(variant_owner.get(r["variant_id"], 0), []).append(r)
# The price-lists target validates against the first 4 sample products (harness/export.rs).
base = [p["id"] for p in products[:4]]
for pid in base:
    write("export_price_lists", f"prices-{pid}", json.dumps({"data": by_product[pid]}))
write("export_price_lists", "prices-base", json.dumps({"data": [r for pid in base for r in by_product[pid]]}))
# The other catalog files, behind their selector byte (harness/export.rs, catalog_file).
base_variants = {v["id"] for p in products[:4] for v in p.get("variants", [])}
inventory = [i for i in load("catalog/inventory.json")["data"] if i["identity"]["variant_id"] in base_variants]
others = [
    (0, load("catalog/categories.json")),
    (1, load("catalog/collections.json")),
    (2, {"data": inventory}),
    (3, load("catalog/channels.json")),
    (4, load("store.json")),
    (5, {k: v for k, v in list(load("catalog/media.json").items())[:20]}),
]
for which, doc in others:
    write("export_catalog", f"file-{which}", bytes([which]) + json.dumps(doc).encode())

for market in ("uk", "us", "eu"):
    for r in load(f"content/{market}.json")["responses"]:
        key = r["content"]["_meta"].get("deliveryKey", "x").replace("/", "_")
        write("export_content", key, json.dumps({"responses": [r]}))

# Request bodies: the selector byte, then a body of that route's shape (harness/api.rs order).
bodies = {
    0: {"email": "a@b.co", "password": "correct horse battery", "first_name": "Ann", "last_name": "Lee"},
    2: {"email": "a@b.co", "password": "correct horse battery"},
    3: {"email": "a@b.co"},
    5: {"token": "abc", "password": "correct horse battery"},
    6: {"first_name": "Ann", "last_name": "Lee", "street_name": "High St", "house_number": "1",
        "city": "London", "postal_code": "SW1A 1AA", "country_code": "GB", "phone": "+44 20 7946 0000"},
    8: {"email": "a@b.co", "market": "uk"},
    19: {"email": "a@b.co"},
    25: {"line_items": [{"product_id": 101, "variant_id": 10001, "quantity": 1,
                         "option_selections": [{"option_id": 1, "option_value": 2}]}]},
    26: {"quantity": 2},
    28: {"name": "Mine", "is_public": False, "items": [{"product_id": 101, "variant_id": 10001}]},
}
for which, body in bodies.items():
    write("api_json_body", f"body-{which}", bytes([which]) + json.dumps(body).encode())
write("api_json_body", "body-dup", bytes([26]) + b'{"quantity":1,"quantity":2}')

events = [
    (0, {"name": "dynamic-content.content-item.updated", "payload": {"id": "abc", "body": {"_meta": {"deliveryId": "d1"}}}}),
    (0, {"name": "dynamic-content.snapshot.published", "payload": {"rootContentItems": [{"id": "r1"}, {"id": "r2"}]}}),
    (1, {"scope": "store/product/updated", "data": {"type": "product", "id": 112}}),
    (1, {"scope": "store/sku/inventory/updated", "data": {"id": 5, "inventory": {"product_id": 112}}}),
    (1, {"scope": "store/sku/updated", "data": {"id": 5, "sku": {"product_id": "112"}}}),
    (1, {"scope": "store/category/deleted", "data": {"id": "11"}}),
]
for i, (which, event) in enumerate(events):
    write("webhook_payload", f"event-{i}", bytes([which]) + json.dumps(event).encode())
