"""Feature pipeline of the Catalog Lens demo workspace.

Every URN below names an entity of the local catalog's sample data
(`npm run catalog -- --sample`), except the ones marked as broken on purpose.
Hover one to see what the catalog knows; the diagnostics show what is missing.
"""
import datahub.emitter.mce_builder as builder
from datahub.emitter.mce_builder import (
    make_dataset_urn,
    make_ml_feature_table_urn,
    make_ml_feature_urn,
    make_ml_model_group_urn,
    make_ml_model_urn,
    make_user_urn,
)

# Source tables: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD) and
# urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD).
USERS = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"
ORDERS = make_dataset_urn("hive", "db.orders", "PROD")
CLICKS = make_dataset_urn(platform="kafka", name="events.clicks", env="PROD")
REVENUE = builder.make_dataset_urn("snowflake", "analytics.public.revenue")

OWNER = "urn:li:corpuser:jdoe"
REVIEWER = make_user_urn("jdoe")

# Features of the users table.
AGE = "urn:li:mlFeature:(users_table,age)"
COUNTRY = make_ml_feature_urn("users_table", "country")
SIGNUP_DAYS = builder.make_ml_feature_urn(feature_table_name="users_table", feature_name="signup_days")

# Features of the orders table: urn:li:mlFeature:(orders_table,order_count)
ORDER_COUNT = "urn:li:mlFeature:(orders_table,order_count)"
AVG_AMOUNT = make_ml_feature_urn(feature_table_name="orders_table", feature_name="avg_amount")

USERS_TABLE = "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)"
ORDERS_TABLE = make_ml_feature_table_urn("feast", "orders_table")

CHURN_GROUP = "urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn-model,PROD)"
LTV_GROUP = make_ml_model_group_urn("mlflow", "ltv-model", "PROD")

CHURN_MODEL = make_ml_model_urn("mlflow", "churn-model-v3", "PROD")
# The model run now serving predictions.
CHAMPION = "urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-model-v3,PROD)"
LTV_MODEL = builder.make_ml_model_urn(platform="mlflow", model_name="ltv-model-v1", env="PROD")


def dataset_urn(platform: str, name: str) -> str:
    # A template: never reported as malformed, never resolved.
    return f"urn:li:dataset:(urn:li:dataPlatform:{platform},{name},PROD)"


# Not in the catalog (yet): the diagnostics say so.
GHOST = "urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost,PROD)"

# Malformed on purpose: the env part is missing.
BROKEN = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users)"

FEATURES_BY_MODEL = {
    CHURN_MODEL: [AGE, COUNTRY, ORDER_COUNT],
    LTV_MODEL: [],
}

# Deprecated in the catalog, which names its replacement: a warning says so, and the quick fix
# "Replace with db.users" changes the name argument alone.
LEGACY_USERS = make_dataset_urn("hive", "db.users_legacy", "PROD")
