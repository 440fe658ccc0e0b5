-- Daily revenue, in EUR, after refunds.
-- target: urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.public.revenue,PROD)
-- reads:  urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)
--         urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)
INSERT OVERWRITE INTO analytics.public.revenue (day, revenue_eur)
SELECT
    CAST(o.created_at AS DATE) AS day,
    SUM(o.amount) AS revenue_eur
FROM db.orders AS o
JOIN db.users AS u ON u.user_id = o.user_id
WHERE u.country IS NOT NULL
GROUP BY 1;
