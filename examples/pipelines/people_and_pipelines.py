"""Who owns what, and the Airflow flow that loads revenue: users, groups, tags, glossary terms,
a domain and a container by their ids, a flow and its job, a chart, a dashboard and a data product.

Every URN below names an entity of the local catalog's sample data
(`npm run catalog -- --sample`), except the ones marked below. Hover one: the catalog's name
stands beside the id (a GUID domain, a hashed container, a user's full name).
"""
from datahub.emitter.mce_builder import make_data_flow_urn, make_data_job_urn_with_flow

OWNER = "urn:li:corpuser:asmith"
ANALYST = "urn:li:corpuser:bwong"
TEAM = "urn:li:corpGroup:data-platform"

GDPR = "urn:li:tag:gdpr"
GOLD = "urn:li:tag:gold"
SENSITIVE = "urn:li:glossaryTerm:Classification.Sensitive"
CLASSIFICATION = "urn:li:glossaryNode:Classification"

MARKETING = "urn:li:domain:7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10"
ANALYTICS_DB = "urn:li:container:25384e01fcde1063114925e9661766e7"

FLOW = "urn:li:dataFlow:(airflow,daily_revenue,PROD)"
LOAD = "urn:li:dataJob:(urn:li:dataFlow:(airflow,daily_revenue,PROD),load_revenue)"
CHART = "urn:li:chart:(looker,revenue_by_day)"
DASHBOARD = "urn:li:dashboard:(looker,revenue_overview)"
PRODUCT = "urn:li:dataProduct:revenue-reporting"

# Deprecated in the catalog: each names its replacement (the quick fix puts it in).
SECRET = "urn:li:glossaryTerm:Classification.Secret"
LOAD_V1 = "urn:li:dataJob:(urn:li:dataFlow:(airflow,daily_revenue,PROD),load_revenue_v1)"

# Not in the catalog on purpose: a typo of the GDPR tag (did you mean gdpr?).
TYPO = "urn:li:tag:gdrp"
