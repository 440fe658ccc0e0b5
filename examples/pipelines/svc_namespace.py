"""The same entities written in the spec's neutral `svc` namespace.

The local catalog accepts `li` and `svc` and treats them as one entity, so these
resolve exactly like their `urn:li:` spellings in features.py.
"""

USERS = "urn:svc:dataset:(urn:svc:dataPlatform:hive,db.users,PROD)"
AGE = "urn:svc:mlFeature:(users_table,age)"
USERS_TABLE = "urn:svc:mlFeatureTable:(urn:svc:dataPlatform:feast,users_table)"
CHURN_MODEL = "urn:svc:mlModel:(urn:svc:dataPlatform:mlflow,churn-model-v3,PROD)"
CHURN_GROUP = "urn:svc:mlModelGroup:(urn:svc:dataPlatform:mlflow,churn-model,PROD)"
OWNER = "urn:svc:corpuser:jdoe"
